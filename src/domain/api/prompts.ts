import { z } from 'zod'
import { resolvedVersionSchema } from '../prompt-references.ts'
import { exportPromptsQuery, importInput, importResultSchema, PROMPTS_FORMAT } from '../prompt-transfer.ts'
import { compiledPromptSchema, compilePromptInput } from '../prompt-variables.ts'
import {
  createPromptInput,
  listPromptsQuery,
  listVersionsQuery,
  promptDependentSchema,
  promptDetailSchema,
  promptSummarySchema,
  promptTagsQuery,
  promptVersionSchema,
  setCurrentVersionInput,
  updatePromptInput,
  versionSummarySchema,
} from '../prompts.ts'
import { defineOperations, idParam, pageOf } from './operation.ts'

const promptParams = z.object({ id: idParam('prompts.notFound') })
const versionParams = promptParams.extend({ versionId: idParam('prompts.versionNotFound') })

export const promptOperations = defineOperations(
  'prompts',
  {
    title: 'Prompts',
    description:
      'Prompts and their versions. A prompt the caller may not see answers 404; one they see but ' +
      'may not change answers 403. Every prompt carries `access`: what the caller may do with it.',
  },
  {
    list: {
      method: 'GET',
      path: '/v1/prompts',
      summary: 'My prompts or my teams’ prompts, newest change first (search, tags, cursor pages of 20)',
      access: 'signed-in',
      apiKeys: true,
      query: listPromptsQuery,
      response: pageOf(promptSummarySchema),
    },
    tags: {
      method: 'GET',
      path: '/v1/prompts/tags',
      summary: 'The tags used in a scope, for the tag filter',
      access: 'signed-in',
      apiKeys: true,
      query: promptTagsQuery,
      response: pageOf(z.string()),
    },
    exportPrompts: {
      method: 'GET',
      path: '/v1/prompts/export',
      summary:
        'A space’s prompts (personal, or a team’s with `teamId`; `ids` for a selection) as one JSON ' +
        'document with every version, config, label and tag: what the import reads',
      access: 'signed-in',
      apiKeys: true,
      query: exportPromptsQuery,
      errors: ['not_found'],
      response: z.object({
        format: z.literal(PROMPTS_FORMAT),
        exportedAt: z.string(),
        prompts: z.array(z.record(z.string(), z.unknown())),
      }),
    },
    importPrompts: {
      method: 'POST',
      path: '/v1/prompts/import',
      summary:
        'Import a Promptfolio export, a Langfuse export or Markdown files into a space, in one ' +
        'transaction; `dryRun` answers what would happen and changes nothing; importing again changes nothing. ' +
        'With `Accept: application/x-ndjson` it answers progress lines (prompts done of the total), then the result or the error',
      access: 'signed-in',
      apiKeys: true,
      body: importInput,
      response: importResultSchema,
      errors: ['conflict', 'plan_limit', 'not_found'],
      streamsProgress: true,
      streamsBodyAt: ['document', 'prompts'],
    },
    create: {
      method: 'POST',
      path: '/v1/prompts',
      summary: 'Create a prompt with version 1 as its current version',
      access: 'signed-in',
      apiKeys: true,
      body: createPromptInput,
      response: promptDetailSchema,
      created: true,
      errors: ['conflict', 'plan_limit'],
    },
    get: {
      method: 'GET',
      path: '/v1/prompts/:id',
      summary: 'A prompt with its current version',
      access: 'signed-in',
      apiKeys: true,
      params: promptParams,
      response: promptDetailSchema,
      permission: 'prompt.view',
    },
    update: {
      method: 'PATCH',
      path: '/v1/prompts/:id',
      summary:
        'Save a prompt; a changed body becomes the next version (409 `stale_version` when the base ' +
        'version is no longer current; 409 when the prompt has reached its version limit)',
      access: 'signed-in',
      apiKeys: true,
      params: promptParams,
      body: updatePromptInput,
      response: promptDetailSchema,
      errors: ['forbidden', 'conflict', 'plan_limit'],
      permission: 'prompt.edit',
    },
    delete: {
      method: 'DELETE',
      path: '/v1/prompts/:id',
      summary: 'Delete a prompt with its versions and attachments',
      access: 'signed-in',
      apiKeys: true,
      params: promptParams,
      response: null,
      errors: ['forbidden', 'conflict'],
      permission: 'prompt.delete',
    },
    usedBy: {
      method: 'GET',
      path: '/v1/prompts/:id/used-by',
      summary:
        'The prompts of the same space that include this one with a `@@@langfusePrompt:name=…@@@` ' +
        'reference in any version (at most 100, by name); while there are any, deleting it is a 409',
      access: 'signed-in',
      apiKeys: true,
      params: promptParams,
      response: pageOf(promptDependentSchema),
      permission: 'prompt.view',
    },
    versions: {
      method: 'GET',
      path: '/v1/prompts/:id/versions',
      summary: 'The versions of a prompt, newest first, with a 200-character preview of each body',
      access: 'signed-in',
      apiKeys: true,
      params: promptParams,
      query: listVersionsQuery,
      response: pageOf(versionSummarySchema),
      permission: 'prompt.view',
    },
    version: {
      method: 'GET',
      path: '/v1/prompts/:id/versions/:versionId',
      summary: 'One version of a prompt, with its whole body',
      access: 'signed-in',
      apiKeys: true,
      params: versionParams,
      response: promptVersionSchema,
      permission: 'prompt.view',
    },
    resolvedVersion: {
      method: 'GET',
      path: '/v1/prompts/:id/versions/:versionId/resolved',
      summary:
        'A version’s body with its `@@@langfusePrompt:…@@@` references replaced by the versions they ' +
        'name (at most 5 levels); a missing reference, a cycle or a chain too deep is a 400 naming it',
      access: 'signed-in',
      apiKeys: true,
      params: versionParams,
      response: resolvedVersionSchema,
      errors: ['validation'],
      permission: 'prompt.view',
    },
    setCurrentVersion: {
      method: 'PUT',
      path: '/v1/prompts/:id/current-version',
      summary: 'Make a version the current one',
      access: 'signed-in',
      apiKeys: true,
      params: promptParams,
      body: setCurrentVersionInput,
      response: promptDetailSchema,
      errors: ['forbidden'],
      permission: 'prompt.setCurrent',
    },
    compile: {
      method: 'POST',
      path: '/v1/prompts/:id/compile',
      summary:
        'Fill in a version’s `{{variables}}` (Mustache, no HTML escaping; the current version unless ' +
        '`version` or `label`): the compiled text, or chat messages. A missing required value or a ' +
        'wrong type is a 400 naming the variable. Values of undeclared variables are text, numbers or ' +
        'booleans; lists only for variables declared as `list` (at most 100 items). A compile that ' +
        'would exceed 1,000,000 characters or too much work (sections repeated over lists) is a 400; ' +
        'at most 120 compiles a minute per user and 60 per key (429 with `Retry-After`)',
      access: 'signed-in',
      apiKeys: true,
      params: promptParams,
      body: compilePromptInput,
      response: compiledPromptSchema,
      errors: ['rate_limited'],
      permission: 'prompt.view',
      readsOnly: true,
    },
  },
)
