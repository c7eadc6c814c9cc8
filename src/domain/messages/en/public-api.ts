/** Prompt names, types and labels, and API keys. */
export const publicApiEn = {
  'prompts.nameRequired': 'Name is required',
  'prompts.nameTooLong': 'Name must be at most 255 characters',
  'prompts.nameInvalid': 'Name may not contain "|" or HTML, and folders (a/b) may not be empty',
  'prompts.nameReserved': 'This name is reserved; choose another',
  'prompts.nameTaken': 'A prompt with this name already exists in this space',
  'prompts.labelInvalid': 'Labels are 1 to 36 lowercase letters, digits, "_", "-" or "."',
  'prompts.labelLatest': 'The label "latest" is set automatically and cannot be moved',
  'prompts.labelProtected': 'Only team admins may move the protected label "{label}"',
  'prompts.labelProtectedByKey':
    'API keys never move the protected label "{label}"; a team admin moves it in the app',
  'prompts.deleteProtected':
    'Only team admins may delete a prompt or version that holds the protected label "{label}"',
  'prompts.deleteProtectedByKey':
    'API keys never delete a prompt or version that holds the protected label "{label}"',
  'prompts.labelNotSet': 'The label "{label}" is not set on this prompt',
  'prompts.labelEventNotFound': 'Label change not found',
  'prompts.labelRevertUnavailable': 'This change cannot be reverted: its earlier version no longer exists',
  'prompts.chatMessageInvalid':
    'A chat prompt is a list of messages with a role and content, or placeholders',
  'prompts.placeholderInvalid': 'Placeholder names start with a letter and use letters, digits and "_"',
  'prompts.placeholderClash': '"{name}" cannot be both a variable and a placeholder',
  'prompts.configInvalid': 'Config must be a JSON object',
  'prompts.configTooDeep': 'Config may be nested at most 20 levels deep',
  'prompts.typeInvalid': 'Type must be text or chat',
  'prompts.typeChange': 'Previous versions have a different prompt type; the type of a prompt cannot change',
  'prompts.importUnknownFormat':
    'This file is not a Promptfolio export, a Langfuse export or a set of Markdown prompt files',
  'prompts.importEmpty': 'This file holds no prompts',
  'prompts.importTooMany': 'One import takes at most {max} prompts',
  'prompts.importInvalid': 'Prompt {index} in the file is invalid ({field}): {problem}',
  'prompts.importDuplicate': 'The file holds the prompt "{name}" twice',
  'prompts.importConflicts':
    '{count} prompts cannot be imported (another type, or not yours to edit); nothing was imported. Preview the import to see which.',
  'prompts.teamAdminRequired': 'Only team admins may change protected labels',
  'apiKeys.nameRequired': 'Name is required',
  'apiKeys.nameTooLong': 'Name must be at most 100 characters',
  'apiKeys.scopeInvalid': 'Scope must be read or read and write',
  'apiKeys.notFound': 'API key not found',
  'apiKeys.teamAdminRequired': 'Only team admins manage the team’s API keys',
  'apiKeys.tooMany': 'This space already has {max} API keys; revoke one first',
  'apiKeys.invalid': 'Invalid API key',
  'apiKeys.readOnly': 'This API key may only read',
  'apiKeys.notForThisRoute': 'API keys may only use the prompt API',
  'apiKeys.personalSpaceOnly':
    "A personal API key reaches your personal prompts only; a team's prompts need a key of that team",
  'apiKeys.apiAccessLocked': 'API access is locked on this plan',
} as const
