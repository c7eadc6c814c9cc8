/** Prompt and prompt version messages. */
export const promptsEn = {
  'prompts.titleRequired': 'Title is required',
  'prompts.titleTooLong': 'Title must be at most 200 characters',
  'prompts.descriptionTooLong': 'Description must be at most 2,000 characters',
  'prompts.contentRequired': 'Prompt content is required',
  'prompts.contentTooLong': 'Prompt content must be at most 50,000 characters',
  'prompts.changelogTooLong': 'The change note must be at most 500 characters',
  'prompts.tagsInvalid': 'Tags must be a list of words',
  'prompts.tagTooLong': 'A tag must be at most 50 characters',
  'prompts.tooManyTags': 'A prompt can have at most 20 tags',
  'prompts.visibilityInvalid': 'Visibility must be Private or Team',
  'prompts.teamRequired': 'Choose a team to share this prompt with',
  'prompts.notTeamMember': 'Not a member of this team',
  'prompts.notFound': 'Prompt not found',
  'prompts.versionNotFound': 'Version not found',
  'prompts.alreadyExists': 'Prompt already exists',
  'prompts.referenced': 'Cannot delete prompt because it is referenced by other records.',
  'prompts.editForbidden': 'You do not have permission to edit this prompt',
  'prompts.sharingForbidden': "Only the prompt's owner can change whom it is shared with",
  'prompts.deleteForbidden': 'You do not have access to delete this prompt.',
  'prompts.tooManyVersions':
    'This prompt has reached its limit of {max} versions. Save your text as a new prompt instead.',
  'prompts.staleVersion':
    'This prompt changed while you were editing: version {version} is now current. Your changes are still in the editor; review them and save again.',
  'prompts.referenceMissing': "This text includes {reference}, which does not exist in this prompt's space.",
  'prompts.referenceNotText':
    'This text includes {reference}, which is a chat prompt; only text prompts can be included.',
  'prompts.referenceCycle': 'These references would form a cycle: {cycle}.',
  'prompts.referenceTooDeep': 'References may be nested at most {max} prompts deep: {chain}.',
  'prompts.referenceTooManyTags':
    '{prompt} includes other prompts {count} times; a text may hold at most {max} references.',
  'prompts.referenceTooLarge':
    'With its references resolved the text would be longer than {max} characters: {chain}.',
  'prompts.referenceTooMany': 'These references read more than {max} prompt versions in all: {chain}.',
  'prompts.usedBy':
    'This prompt is included by other prompts and cannot be deleted: {prompts}. Remove the references first.',
  'prompts.initialChangelog': 'Initial version',
  'prompts.updatedChangelog': 'Updated prompt content',
} as const
