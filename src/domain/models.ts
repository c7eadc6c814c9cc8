import { z } from 'zod'
import { type chatMessageSchema, placeholderNamePattern, promptConfigSchema } from './prompt-names.ts'
import { compilePromptInput, variablesSchema } from './prompt-variables.ts'
import { PROMPT_LIMITS, promptBodySchema } from './prompts.ts'

/**
 * Model providers: the API keys a space (a user's personal space or a team's) holds for running
 * prompts against language models, and the runs themselves. The key is written once and never
 * shown again; the server keeps it sealed and uses it only on behalf of the space's members.
 */
export const providerKinds = ['openai_compatible', 'anthropic'] as const
export type ProviderKind = (typeof providerKinds)[number]

/** Where each kind's API lives when the form leaves the base URL blank. */
export const DEFAULT_BASE_URLS: Record<ProviderKind, string> = {
  openai_compatible: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
}

/** Providers one space may hold. */
export const PROVIDERS_PER_SPACE = 20
/** Model names one provider may list. */
export const MODELS_PER_PROVIDER = 200
/** Runs one user may start per minute, and runs one space's providers may serve per minute. */
export const RUN_RATE_LIMIT = { windowSeconds: 60, perUser: 20, perSpace: 60 } as const
/** A run that has not finished after this long is stopped (the answer so far is kept). */
export const RUN_TIMEOUT_MS = 120_000
/** The characters of a key shown as its hint (its last ones). */
export const KEY_HINT_LENGTH = 4

const nameField = z
  .string({ error: 'models.nameRequired' })
  .trim()
  .min(1, 'models.nameRequired')
  .max(100, 'models.nameTooLong')

const baseUrlField = z
  .string({ error: 'models.baseUrlInvalid' })
  .trim()
  .max(2000, 'models.baseUrlInvalid')
  .transform((value) => value.replace(/\/+$/, ''))
  .pipe(z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'models.baseUrlInvalid' })]))

const apiKeyField = z
  .string({ error: 'models.apiKeyRequired' })
  .trim()
  .min(1, 'models.apiKeyRequired')
  .max(1000, 'models.apiKeyTooLong')

export const modelNameSchema = z.string().trim().min(1, 'models.modelInvalid').max(200, 'models.modelInvalid')

/** Model names typed as a list (one a line or comma-separated in the form); duplicates dropped. */
const modelsField = z
  .array(modelNameSchema, { error: 'models.modelInvalid' })
  .max(MODELS_PER_PROVIDER, 'models.tooManyModels')
  .transform((models) => [...new Set(models)])

const defaultModelField = z.string({ error: 'models.modelInvalid' }).trim().max(200, 'models.modelInvalid')

/** The default model must be one of the listed ones when a list is given. */
function defaultInList(input: { models?: string[]; defaultModel?: string }, ctx: z.RefinementCtx) {
  if (
    input.defaultModel &&
    input.models &&
    input.models.length > 0 &&
    !input.models.includes(input.defaultModel)
  ) {
    ctx.addIssue({ code: 'custom', path: ['defaultModel'], message: 'models.defaultNotListed' })
  }
}

export const createProviderInput = z
  .object({
    kind: z.enum(providerKinds, { error: 'models.kindInvalid' }),
    name: nameField,
    baseUrl: baseUrlField.default(''),
    apiKey: apiKeyField,
    models: modelsField.default([]),
    defaultModel: defaultModelField.default(''),
  })
  .superRefine(defaultInList)
export type CreateProviderInput = z.input<typeof createProviderInput>

/** A change: each field optional; a new key replaces the stored one (it is never read back). */
export const updateProviderInput = z
  .object({
    name: nameField.optional(),
    baseUrl: baseUrlField.optional(),
    apiKey: apiKeyField.optional(),
    models: modelsField.optional(),
    defaultModel: defaultModelField.optional(),
  })
  .superRefine(defaultInList)
export type UpdateProviderInput = z.input<typeof updateProviderInput>

export const providerSchema = z.object({
  id: z.uuid(),
  teamId: z.uuid().nullable(),
  kind: z.enum(providerKinds),
  name: z.string(),
  /** The API's base URL as used (the kind's default when none was given). */
  baseUrl: z.string(),
  /** The key's last characters, to tell keys apart; the key itself is never sent back. */
  keyHint: z.string(),
  models: z.array(z.string()),
  defaultModel: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type ModelProvider = z.infer<typeof providerSchema>

export const providerModelsSchema = z.object({ models: z.array(z.string()) })

/** The parameters a run sends to the model; the version's config fills in what is not given. */
export const runParametersSchema = z.object({
  temperature: z
    .number({ error: 'models.temperatureInvalid' })
    .min(0, 'models.temperatureInvalid')
    .max(2, 'models.temperatureInvalid')
    .optional(),
  maxTokens: z
    .number({ error: 'models.maxTokensInvalid' })
    .int('models.maxTokensInvalid')
    .min(1, 'models.maxTokensInvalid')
    .max(200_000, 'models.maxTokensInvalid')
    .optional(),
  topP: z
    .number({ error: 'models.topPInvalid' })
    .min(0, 'models.topPInvalid')
    .max(1, 'models.topPInvalid')
    .optional(),
})
export type RunParameters = z.infer<typeof runParametersSchema>

/**
 * An edited text (a chat prompt's entries as JSON) with its config and declared variables, run
 * instead of the stored version: the same schemas and limits as a saved version's, so whatever
 * runs here can be saved as the next version unchanged.
 */
export const runDraftSchema = z.object({
  body: promptBodySchema,
  config: promptConfigSchema,
  variables: variablesSchema.default([]),
})

/** Messages the placeholders of one run may hold together, and the characters of one message. */
export const PLACEHOLDER_LIMITS = { messages: 100, content: PROMPT_LIMITS.body } as const

const placeholderMessageSchema = z.object({
  role: z
    .string({ error: 'models.placeholderInvalid' })
    .trim()
    .min(1, 'models.placeholderInvalid')
    .max(50, 'models.placeholderInvalid'),
  content: z
    .string({ error: 'models.placeholderInvalid' })
    .max(PLACEHOLDER_LIMITS.content, 'models.placeholderTooLong'),
}) satisfies z.ZodType<Extract<z.infer<typeof chatMessageSchema>, { role: string }>>

/**
 * The messages each placeholder of a chat prompt stands for, by its name (as the Langfuse SDK's
 * `compile(variables, placeholders)` takes them); inserted as given, after the variables are filled.
 * A placeholder not given stands for no messages.
 */
export const placeholderValuesSchema = z
  .record(
    z.string().regex(placeholderNamePattern, 'models.placeholderInvalid'),
    z.array(placeholderMessageSchema, { error: 'models.placeholderInvalid' }),
    { error: 'models.placeholderInvalid' },
  )
  .refine(
    (filled) =>
      Object.values(filled).reduce((sum, messages) => sum + messages.length, 0) <=
      PLACEHOLDER_LIMITS.messages,
    'models.tooManyPlaceholderMessages',
  )
export type PlaceholderValues = z.infer<typeof placeholderValuesSchema>

/**
 * A compile's input (values, and a version or label) plus the provider, model and parameters.
 * With `draft`, its body, config and variables run instead of the chosen version's (which the
 * answer still names as the version the draft started from).
 */
export const runPromptInput = compilePromptInput.safeExtend({
  providerId: z.uuid({ error: 'models.providerNotFound' }),
  /** The model; the version's config `model`, else the provider's default, when not given. */
  model: modelNameSchema.optional(),
  parameters: runParametersSchema.optional().transform((parameters) => parameters ?? {}),
  placeholders: placeholderValuesSchema.optional().transform((filled) => filled ?? {}),
  draft: runDraftSchema.optional(),
})
export type RunPromptInput = z.input<typeof runPromptInput>

export const runUsageSchema = z.object({
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
})

/** A finished run: the answer, what ran, and how long it took. */
export const runResultSchema = z.object({
  promptId: z.uuid(),
  /** The version that ran, or the one an edited draft started from (`draft`). */
  versionId: z.uuid(),
  versionNumber: z.number().int(),
  /** An edited draft ran instead of the stored version. */
  draft: z.boolean(),
  providerId: z.uuid(),
  model: z.string(),
  text: z.string(),
  /** Why the model stopped ('stop', 'length'...), or 'cancelled' when the caller stopped it. */
  finishReason: z.string(),
  usage: runUsageSchema,
  /** Milliseconds from the request to the first piece of the answer (null when none came). */
  timeToFirstTokenMs: z.number().int().nullable(),
  durationMs: z.number().int(),
})
export type RunResult = z.infer<typeof runResultSchema>

/**
 * The parameters a version's config suggests for a run: `model`, `temperature`, `max_tokens`
 * (or `maxTokens`, `max_output_tokens`) and `top_p` (or `topP`), where they have the right type.
 */
export function runDefaultsFromConfig(config: Record<string, unknown>): RunParameters & { model?: string } {
  const number = (...keys: string[]) => {
    for (const key of keys) if (typeof config[key] === 'number') return config[key] as number
    return undefined
  }
  const parsed = runParametersSchema.safeParse({
    temperature: number('temperature'),
    maxTokens: number('max_tokens', 'maxTokens', 'max_output_tokens'),
    topP: number('top_p', 'topP'),
  })
  const model = typeof config.model === 'string' && config.model.trim() ? config.model.trim() : undefined
  return { ...(parsed.success ? parsed.data : {}), ...(model && { model }) }
}

/** A key's hint: its last characters, behind an ellipsis. */
export function keyHintOf(key: string): string {
  return `…${key.slice(-KEY_HINT_LENGTH)}`
}

/** `POST /v1/prompts/:id/variables`: a version (current unless `version` or `label`), or a draft's body. */
export const expandedVariablesInput = z
  .object({
    version: compilePromptInput.shape.version,
    label: compilePromptInput.shape.label,
    body: promptBodySchema.optional(),
  })
  .refine((input) => input.version === undefined || input.label === undefined, {
    message: 'prompts.labelOrVersion',
    path: ['label'],
  })

/**
 * The variables and placeholders of a body after its references are expanded, in order of first
 * use: those of the included prompts too, which the version's own body does not show.
 */
export const expandedVariablesSchema = z.object({
  variables: z.array(z.string()),
  placeholders: z.array(z.string()),
})
export type ExpandedVariables = z.infer<typeof expandedVariablesSchema>
