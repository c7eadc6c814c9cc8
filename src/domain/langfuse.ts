import { z } from 'zod'
import { VERSION_NUMBER_MAX } from './constants.ts'
import {
  chatPromptSchema,
  labelSchema,
  promptConfigSchema,
  promptNameSchema,
  promptTypes,
  RESERVED_PROMPT_NAMES,
} from './prompt-names.ts'
import { PROMPT_LIMITS, promptBodySchema } from './prompts.ts'

/**
 * The Langfuse prompt API's request shapes (reference/langfuse-prompt-api.md), so that Langfuse's
 * SDKs work against Promptfolio unchanged. Answers are built by the server module.
 */
export const langfuseTagsSchema = z.array(z.string().trim().min(1).max(50)).max(20)

/** The fields of a create as sent, before the type is inferred and the prompt checked for it. */
export const langfuseCreateFields = z.object({
  name: promptNameSchema,
  type: z.enum(promptTypes, { error: 'prompts.typeInvalid' }).optional(),
  prompt: z.unknown(),
  config: promptConfigSchema,
  // 'latest' is added by the server whatever the client says.
  labels: z
    .array(z.string())
    .optional()
    .transform((labels) => (labels ?? []).filter((label) => label !== 'latest'))
    .pipe(z.array(labelSchema)),
  tags: langfuseTagsSchema.nullable().optional(),
  commitMessage: z.string().max(PROMPT_LIMITS.changelog, 'prompts.changelogTooLong').nullable().optional(),
  isActive: z.boolean().optional(),
})

/** POST /api/public/v2/prompts (and, with `isActive`, the legacy /api/public/prompts). */
export const langfuseCreateSchema = langfuseCreateFields.transform((input, ctx) => {
  const type = input.type ?? (Array.isArray(input.prompt) ? 'chat' : 'text')
  const parsed =
    type === 'chat' ? chatPromptSchema.safeParse(input.prompt) : promptBodySchema.safeParse(input.prompt)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({
        code: 'custom',
        path: ['prompt', ...issue.path],
        message: issue.message,
        params: (issue as { params?: Record<string, unknown> }).params,
      })
    }
    return z.NEVER
  }
  const labels =
    input.isActive && !input.labels.includes('production') ? [...input.labels, 'production'] : input.labels
  return { ...input, type, prompt: parsed.data, labels: [...new Set(labels)] }
})
export type LangfuseCreateInput = z.output<typeof langfuseCreateSchema>

/** Which version a request names: `version` or `label`, not both; neither means production. */
const selectorFields = z.object({
  version: z.coerce.number().int().positive().max(VERSION_NUMBER_MAX).optional(),
  label: z.string().min(1).optional(),
})
const oneSelector = (query: { version?: number; label?: string }) =>
  query.version === undefined || query.label === undefined

/** GET /api/public/v2/prompts/{name}; `resolve=false` leaves included prompts as they are written. */
export const langfuseGetQuery = selectorFields
  .extend({ resolve: z.enum(['true', 'false']).optional() })
  .refine(oneSelector, 'prompts.labelOrVersion')

/** The legacy GET /api/public/prompts: the name in the query. */
export const langfuseLegacyGetQuery = selectorFields
  .extend({ name: z.string().min(1), resolve: z.enum(['true', 'false']).optional() })
  .refine(oneSelector, 'prompts.labelOrVersion')

/** DELETE /api/public/v2/prompts/{name}: one version, the one a label names, or (neither) all. */
export const langfuseDeleteQuery = selectorFields.refine(oneSelector, 'prompts.labelOrVersion')

export const langfuseUpdateLabelsSchema = z.object({
  newLabels: z.array(z.string()).pipe(z.array(labelSchema)),
})

export const langfuseListQuery = z.object({
  name: z.string().optional(),
  label: z.string().optional(),
  tag: z.string().optional(),
  version: z.coerce.number().int().positive().max(VERSION_NUMBER_MAX).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  fromUpdatedAt: z.iso.datetime({ offset: true }).optional(),
  toUpdatedAt: z.iso.datetime({ offset: true }).optional(),
})

/**
 * Langfuse's messages for a refused prompt name, one per rule it breaks and in its words (its
 * `PromptNameSchema`): clients and Langfuse's own tests look for them. Empty when Langfuse would
 * accept the name (ours may still refuse it, e.g. for length; then our message is used).
 */
export function langfuseNameMessages(name: string): string[] {
  const trimmed = name.trim()
  if (trimmed === '') return ['Text cannot be empty']
  return [
    /<[^>]*>/.test(trimmed) && 'Text cannot contain HTML tags',
    trimmed.includes('|') && "Prompt name cannot contain '|' character",
    trimmed.startsWith('/') && 'Name cannot start with a slash',
    trimmed.includes('//') && 'Name cannot contain consecutive slashes',
    trimmed.endsWith('/') && 'Name cannot end with a slash',
    (RESERVED_PROMPT_NAMES as readonly string[]).includes(trimmed) && `Prompt name cannot be '${trimmed}'`,
  ].filter((message): message is string => typeof message === 'string')
}
