import { z } from 'zod'
import { RenderBudget, type RenderLimit, RenderLimitError, renderBounded } from './bounded-render.ts'
import { VERSION_NUMBER_MAX } from './constants.ts'
import {
  type ChatEntry,
  chatMessageSchema,
  LABEL_PATTERN,
  type PromptType,
  parsePromptBody,
  promptTypes,
  sameConfig,
  variablesOf,
} from './prompt-names.ts'

/**
 * A version's variables: `{{name}}` in the body, with Mustache's rules as the Langfuse
 * SDK's `compile` applies them (HTML escaping off, a missing value renders as nothing), optionally
 * declared per version with a type, a default, a description and whether it is required.
 */
export const variableTypes = ['string', 'number', 'boolean', 'enum', 'text', 'list'] as const

/** `listItems`: the items a value of a `list` variable may have. */
export const VARIABLE_LIMITS = {
  count: 100,
  description: 500,
  values: 50,
  value: 200,
  listItems: 100,
} as const

const variableNamePattern = /^\p{L}[\p{L}\p{N}_]*$/u
const scalar = z.union([z.string().max(10_000), z.number(), z.boolean()])

export const variableDeclarationSchema = z.object({
  name: z
    .string({ error: 'prompts.variableNameInvalid' })
    .trim()
    .regex(variableNamePattern, 'prompts.variableNameInvalid'),
  type: z.enum(variableTypes, { error: 'prompts.variableTypeInvalid' }).default('string'),
  required: z.boolean({ error: 'error.invalidValue' }).default(false),
  /** Used when the caller gives no value. Null: none. */
  default: scalar
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  description: z
    .string({ error: 'error.invalidValue' })
    .trim()
    .max(VARIABLE_LIMITS.description, 'prompts.variableDescriptionTooLong')
    .nullable()
    .optional()
    .transform((value) => (value ? value : null)),
  /** An enum's allowed values (only for type 'enum'). */
  values: z
    .array(z.string().trim().min(1, 'prompts.variableEnumInvalid').max(VARIABLE_LIMITS.value), {
      error: 'prompts.variableEnumInvalid',
    })
    .max(VARIABLE_LIMITS.values, 'prompts.variableEnumInvalid')
    .optional()
    .transform((values) => (values ? [...new Set(values)] : [])),
})
export type VariableDeclaration = z.output<typeof variableDeclarationSchema>
export type VariableDeclarationInput = z.input<typeof variableDeclarationSchema>

/** A version's declared variables: unique names; an enum has values; a default fits its type. */
export const variablesSchema = z
  .array(variableDeclarationSchema, { error: 'prompts.variablesInvalid' })
  .max(VARIABLE_LIMITS.count, 'prompts.variablesInvalid')
  .superRefine((declarations, ctx) => {
    const seen = new Set<string>()
    declarations.forEach((declaration, index) => {
      const { name } = declaration
      if (seen.has(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'name'],
          message: 'prompts.variableDuplicate',
          params: { name },
        })
      }
      seen.add(name)
      if (declaration.type === 'enum' && declaration.values.length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'values'],
          message: 'prompts.variableEnumInvalid',
          params: { name },
        })
      }
      if (declaration.default !== null && coerceValue(declaration, declaration.default).problem) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'default'],
          message: 'prompts.variableDefaultInvalid',
          params: { name },
        })
      }
    })
  })
export type Variables = VariableDeclaration[]

/** `variables` in the create and update inputs: absent or null is none. */
export const variablesInput = variablesSchema.nullable().optional()

type Scalar = string | number | boolean
type Coerced =
  | { value: Scalar | Scalar[]; problem?: undefined }
  | { problem: 'type' | 'enum' | 'listTooLong' }

/** Text, a number or true/false: what a value may be unless its variable is declared a list. */
export function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

/**
 * A value as its declaration's type wants it. Numbers and booleans may come as text (a form's
 * fields are text), so '3' is 3 and 'true' is true; anything else of the wrong kind is refused.
 * A list is a list of scalars, at most `VARIABLE_LIMITS.listItems` of them (sections repeat once
 * per item, so its length is what a section may multiply by).
 */
export function coerceValue(declaration: VariableDeclaration, value: unknown): Coerced {
  switch (declaration.type) {
    case 'list':
      if (!Array.isArray(value) || !value.every(isScalar)) return { problem: 'type' }
      return value.length > VARIABLE_LIMITS.listItems ? { problem: 'listTooLong' } : { value }
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
      return typeof number === 'number' && Number.isFinite(number) ? { value: number } : { problem: 'type' }
    }
    case 'boolean':
      if (typeof value === 'boolean') return { value }
      if (value === 'true' || value === 'false') return { value: value === 'true' }
      return { problem: 'type' }
    case 'enum':
      if (typeof value !== 'string') return { problem: 'type' }
      return declaration.values.includes(value) ? { value } : { problem: 'enum' }
    default:
      return typeof value === 'string' ? { value } : { problem: 'type' }
  }
}

export type ValueProblem = {
  name: string
  /** `notScalar`: a list or an object for a variable not declared as a list. */
  problem: 'missing' | 'type' | 'enum' | 'listTooLong' | 'notScalar'
}

/** An empty string counts as no value (a form's blank field). */
function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && value !== ''
}

/**
 * The values a compile uses: each declared variable's value (or its default) checked against its
 * type, plus any undeclared value as given when it is a scalar (or null, no value). The problems
 * name each variable that failed.
 */
export function resolveValues(
  declarations: readonly VariableDeclaration[],
  values: Readonly<Record<string, unknown>>,
): { view: Record<string, unknown>; problems: ValueProblem[] } {
  const view: Record<string, unknown> = { ...values }
  const problems: ValueProblem[] = []
  const declared = new Set(declarations.map((declaration) => declaration.name))
  for (const [name, value] of Object.entries(values)) {
    if (!declared.has(name) && value !== null && !isScalar(value))
      problems.push({ name, problem: 'notScalar' })
  }
  for (const declaration of declarations) {
    const given = values[declaration.name]
    const value = isGiven(given) ? given : declaration.default
    if (!isGiven(value)) {
      delete view[declaration.name]
      if (declaration.required) problems.push({ name: declaration.name, problem: 'missing' })
      continue
    }
    const coerced = coerceValue(declaration, value)
    if (coerced.problem) problems.push({ name: declaration.name, problem: coerced.problem })
    else view[declaration.name] = coerced.value
  }
  return { view, problems }
}

export type CompiledPrompt = string | ChatEntry[]

/**
 * The compiled prompt: a text prompt's text, or a chat prompt's entries with each message's
 * content rendered (placeholders stay as they are, as the SDK leaves unfilled ones). One budget
 * for the whole prompt (`RENDER_LIMITS`): past it, `limit` says which was reached and nothing is
 * rendered. The server's compile and the web's Try it both compile with this, so both answer alike.
 */
export function compilePrompt(
  type: PromptType,
  body: string,
  declarations: readonly VariableDeclaration[],
  values: Readonly<Record<string, unknown>>,
):
  | { ok: true; prompt: CompiledPrompt }
  | { ok: false; problems: ValueProblem[] }
  | { ok: false; problems: []; templateError: true }
  | { ok: false; problems: []; limit: RenderLimit } {
  const { view, problems } = resolveValues(declarations, values)
  if (problems.length > 0) return { ok: false, problems }
  const budget = new RenderBudget()
  const render = (template: string) => renderBounded(template, view, budget)
  try {
    const parsed = parsePromptBody(type, body)
    if (typeof parsed === 'string') return { ok: true, prompt: render(parsed) }
    return {
      ok: true,
      prompt: parsed.map((entry) =>
        'content' in entry ? { ...entry, content: render(entry.content) } : entry,
      ),
    }
  } catch (error) {
    if (error instanceof RenderLimitError) return { ok: false, problems: [], limit: error.limit }
    // Sections nested deeper than the call stack goes: too much work, not a broken template.
    if (error instanceof RangeError) return { ok: false, problems: [], limit: 'work' }
    return { ok: false, problems: [], templateError: true }
  }
}

/** The texts of a body that hold variables: a text prompt's text, or each chat message's content. */
export function templatesOf(type: PromptType, body: string): string[] {
  const parsed = parsePromptBody(type, body)
  return typeof parsed === 'string'
    ? [parsed]
    : parsed.flatMap((entry) => ('content' in entry ? [entry.content] : []))
}

/** The variables a body uses, in order of first use. */
export function variablesOfBody(type: PromptType, body: string): string[] {
  return [...new Set(templatesOf(type, body).flatMap(variablesOf))]
}

/** `{name}` in single braces (the old tip's style), which compile leaves as it is. */
export function singleBraceNamesOf(text: string): string[] {
  const names = new Set<string>()
  for (const match of text.matchAll(/(?<!\{)\{\s*(\p{L}[\p{L}\p{N}_]*)\s*\}(?!\})/gu)) names.add(match[1]!)
  return [...names]
}

export type VariableLint = {
  /** Used in the body, not declared (only when some are declared). */
  undeclared: string[]
  /** Declared, not used in the body. */
  unused: string[]
  /** `{name}`: single braces, not a variable. */
  singleBraces: string[]
}

/**
 * What a save should mention (shown, never blocking). Undeclared variables count only once the
 * version declares any: a prompt without declarations simply uses its variables as untyped text.
 */
export function lintVariables(
  type: PromptType,
  body: string,
  declarations: readonly { name: string }[],
): VariableLint {
  const used = variablesOfBody(type, body)
  const declared = new Set(declarations.map((declaration) => declaration.name))
  return {
    undeclared: declared.size === 0 ? [] : used.filter((name) => !declared.has(name)),
    unused: [...declared].filter((name) => !used.includes(name)),
    singleBraces: [...new Set(templatesOf(type, body).flatMap(singleBraceNamesOf))].filter(
      (name) => !used.includes(name),
    ),
  }
}

/** A body as a diff shows it: a chat prompt as one `role: content` line per message. */
export function diffableText(type: PromptType, body: string): string {
  const parsed = parsePromptBody(type, body)
  if (typeof parsed === 'string') return parsed
  return parsed
    .map((entry) => ('content' in entry ? `${entry.role}: ${entry.content}` : `[placeholder: ${entry.name}]`))
    .join('\n')
}

/** Two declarations lists say the same (order and key order count as written). */
export function sameVariables(a: readonly VariableDeclaration[], b: readonly VariableDeclaration[]): boolean {
  return sameConfig({ list: a }, { list: b })
}

/**
 * Compiles a caller may ask for a minute (times RATE_LIMIT_MULTIPLIER): per API key, and per user
 * over their sessions and all their keys together, so a runaway script leaves its owner room.
 */
export const COMPILE_RATE_LIMIT = { windowSeconds: 60, perKey: 60, perUser: 120 } as const

/** `POST /api/v1/prompts/:id/compile`: values for the variables, and which version (default current). */
export const compilePromptInput = z
  .object({
    values: z
      .record(z.string(), z.unknown(), { error: 'prompts.compileValuesInvalid' })
      .optional()
      .transform((values) => values ?? {}),
    version: z
      .number({ error: 'prompts.versionNotFound' })
      .int('prompts.versionNotFound')
      .positive('prompts.versionNotFound')
      .max(VERSION_NUMBER_MAX, 'prompts.versionNotFound')
      .optional(),
    label: z
      .string({ error: 'prompts.labelInvalid' })
      .regex(LABEL_PATTERN, 'prompts.labelInvalid')
      .optional(),
  })
  .refine((input) => input.version === undefined || input.label === undefined, {
    message: 'prompts.labelOrVersion',
    path: ['label'],
  })

/** The compile's answer: the version it used and the compiled text, or chat entries. */
export const compiledPromptSchema = z.object({
  promptId: z.uuid(),
  versionId: z.uuid(),
  versionNumber: z.number().int(),
  type: z.enum(promptTypes),
  prompt: z.union([z.string(), z.array(chatMessageSchema)]),
})
export type CompiledPromptAnswer = z.infer<typeof compiledPromptSchema>

const valueProblemKeys = {
  missing: 'prompts.variableMissing',
  enum: 'prompts.variableNotInEnum',
  type: 'prompts.variableWrongType',
  listTooLong: 'prompts.variableListTooLong',
  notScalar: 'prompts.variableNotScalar',
} as const satisfies Record<ValueProblem['problem'], string>

/** The message key of a value's problem. */
export function valueProblemKey(problem: ValueProblem['problem']) {
  return valueProblemKeys[problem]
}

/** The message key of a compile stopped by `RENDER_LIMITS`. */
export function renderLimitKey(limit: RenderLimit) {
  return limit === 'output' ? 'prompts.compileTooLong' : 'prompts.compileTooMuchWork'
}
