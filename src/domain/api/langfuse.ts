import { z } from 'zod'
import { VERSION_NUMBER_MAX } from '../constants.ts'
import {
  langfuseCreateSchema,
  langfuseDeleteQuery,
  langfuseGetQuery,
  langfuseLegacyGetQuery,
  langfuseListQuery,
  langfuseUpdateLabelsSchema,
} from '../langfuse.ts'
import { chatPromptSchema, promptTypes } from '../prompt-names.ts'
import { resolvedVersionSchema } from '../prompt-references.ts'
import { defineOperations, type OperationSpec } from './operation.ts'

/** One prompt version in Langfuse's fields (reference/langfuse-prompt-api.md). */
const langfusePromptSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  projectId: z.string(),
  createdBy: z.string(),
  prompt: z.union([z.string(), chatPromptSchema]),
  name: z.string(),
  version: z.number().int(),
  type: z.enum(promptTypes),
  isActive: z.boolean(),
  config: z.record(z.string(), z.unknown()),
  tags: z.array(z.string()),
  labels: z.array(z.string()),
  commitMessage: z.string().nullable(),
  /** The included prompts (`@@@langfusePrompt:…@@@`) a resolved fetch replaced; null otherwise. */
  resolutionGraph: resolvedVersionSchema.shape.resolutionGraph.optional(),
})

const pageMeta = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  totalItems: z.number().int(),
  totalPages: z.number().int(),
})

const nameParams = z.object({ name: z.string() })

/**
 * What every operation of Langfuse's door shares: a key pair in Basic auth, Langfuse's errors, and
 * 409 for a prompt whose inclusions cannot be resolved or would break.
 */
const door = {
  access: 'key-pair',
  errorEnvelope: 'langfuse',
  errors: ['conflict'],
} as const satisfies Partial<OperationSpec>

const create = {
  ...door,
  method: 'POST',
  body: langfuseCreateSchema,
  response: langfusePromptSchema,
  created: true,
  permission: 'prompt.moveLabels',
} as const satisfies Partial<OperationSpec>

const fetchOne = {
  ...door,
  method: 'GET',
  response: langfusePromptSchema,
  errors: ['not_found', 'conflict'],
} as const satisfies Partial<OperationSpec>

/**
 * The Langfuse-compatible prompt API under `/api/public`, so that Langfuse's SDKs and clients work
 * against Promptfolio unchanged: the key's space (a user's or a team's) is the project.
 */
export const langfuseOperations = defineOperations(
  'langfuse',
  {
    title: 'Langfuse prompt API',
    description:
      'Langfuse’s prompt API, for its SDKs and clients: Basic auth with an API key’s public key as the ' +
      'user and its secret as the password; the key’s space is the project. Errors answer Langfuse’s ' +
      '`{message, error}` (see the `LangfuseError` schema), not `{error: {code, message}}`.',
  },
  {
    list: {
      ...door,
      method: 'GET',
      path: '/public/v2/prompts',
      summary: 'The space’s prompts by name, with their versions, labels and tags (pages of `limit`)',
      query: langfuseListQuery,
      response: z.object({
        data: z.array(
          z.object({
            name: z.string(),
            type: z.enum(promptTypes),
            versions: z.array(z.number().int()),
            labels: z.array(z.string()),
            tags: z.array(z.string()),
            lastUpdatedAt: z.string(),
            lastConfig: z.record(z.string(), z.unknown()),
          }),
        ),
        meta: pageMeta,
        pagination: pageMeta,
      }),
    },
    create: {
      ...create,
      path: '/public/v2/prompts',
      summary:
        'A new version of the named prompt (the prompt too when it is new), `latest` included; its ' +
        '`labels` move to it. The type is `chat` for an array `prompt` unless given',
    },
    get: {
      ...fetchOne,
      path: '/public/v2/prompts/:name',
      summary:
        'One version by `version` or `label` (not both; production by default), included prompts ' +
        'resolved unless `resolve=false`. Answers an `ETag`: `If-None-Match` gets 304; a version is ' +
        'cached for a year, a label revalidated',
      params: nameParams,
      query: langfuseGetQuery,
    },
    updateLabels: {
      ...door,
      method: 'PATCH',
      path: '/public/v2/prompts/:name/versions/:version',
      summary: 'Add `newLabels` to a version, moving them from the versions that held them',
      params: nameParams.extend({
        version: z.coerce.number().int().min(1).max(VERSION_NUMBER_MAX, 'prompts.versionNotFound'),
      }),
      body: langfuseUpdateLabelsSchema,
      response: langfusePromptSchema,
      permission: 'prompt.moveLabels',
    },
    delete: {
      ...door,
      method: 'DELETE',
      path: '/public/v2/prompts/:name',
      summary:
        'Delete one version (`version`), the version holding `label`, or the whole prompt; refused ' +
        'while other prompts include what would go',
      params: nameParams,
      query: langfuseDeleteQuery,
      response: null,
      permission: 'prompt.delete',
    },
    legacyGet: {
      ...fetchOne,
      path: '/public/prompts',
      summary: 'Legacy v1 fetch (older SDKs): by `name`, `version` or production',
      query: langfuseLegacyGetQuery,
    },
    legacyCreate: {
      ...create,
      path: '/public/prompts',
      summary: 'Legacy v1 create (older SDKs): as the v2 create, `isActive` adding production',
    },
  },
)
