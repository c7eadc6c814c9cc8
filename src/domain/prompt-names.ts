import { z } from 'zod'

/**
 * What runtime use of a prompt needs, with Langfuse's rules so its SDKs work unchanged:
 * a name unique in its space (slashes make folders), a type (text or chat), a JSON config per
 * version, and labels on versions. 'latest' is kept by the system (the highest version);
 * 'production' is what the app calls the current version ('Set as Current').
 */
export const promptTypes = ['text', 'chat'] as const
export type PromptType = (typeof promptTypes)[number]

export const PROMPT_NAME_MAX = 255
/** Names Langfuse reserves for its own pages. */
export const RESERVED_PROMPT_NAMES = ['new', 'metrics', 'prompt-detail'] as const
export const LATEST_LABEL = 'latest'
export const PRODUCTION_LABEL = 'production'
export const LABEL_PATTERN = /^[a-z0-9_.-]{1,36}$/

const htmlTag = /<[^>]*>/

/** Why a name is refused, or null when it is a valid prompt name. */
export function promptNameProblem(
  name: string,
): 'prompts.nameRequired' | 'prompts.nameTooLong' | 'prompts.nameInvalid' | 'prompts.nameReserved' | null {
  if (name.trim() === '') return 'prompts.nameRequired'
  if (name.length > PROMPT_NAME_MAX) return 'prompts.nameTooLong'
  if (name.includes('|') || htmlTag.test(name)) return 'prompts.nameInvalid'
  // Folders: no empty segment (no leading, trailing or doubled slash), no blank one.
  if (name.split('/').some((segment) => segment.trim() === '')) return 'prompts.nameInvalid'
  if ((RESERVED_PROMPT_NAMES as readonly string[]).includes(name)) return 'prompts.nameReserved'
  return null
}

export const promptNameSchema = z
  .string({ error: 'prompts.nameRequired' })
  .trim()
  .superRefine((name, ctx) => {
    const problem = promptNameProblem(name)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

/** Letters NFD cannot split into a base letter and a mark, spelled as people type them in ASCII. */
const spelledLetters: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
}
/**
 * Any of them. Built from the keys rather than written as a literal: the server bundle escapes
 * non-ASCII in strings but not in regular expression literals, and one such character makes V8 keep
 * the whole bundle's source as two bytes a character (scripts/build-server.mjs).
 */
const spelledLetter = new RegExp(`[${Object.keys(spelledLetters).join('')}]`, 'g')

/**
 * The name a prompt gets from its title: a lowercase slug that code can put in a URL unescaped
 * ('Meeting summary' → 'meeting-summary'). Accents are dropped (é → e, ß → ss); letters of other
 * scripts are kept, so a title in Cyrillic or Japanese still makes a readable name; everything else
 * becomes one '-'. At most 240 characters (room for a '-2' suffix); reserved names get '-1'.
 */
export function nameFromTitle(title: string): string {
  const base = title
    .replace(/<[^>]*>/g, ' ')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(spelledLetter, (letter) => spelledLetters[letter] ?? letter)
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .slice(0, 240)
    .replace(/^-+|-+$/g, '')
  if (base === '') return 'prompt'
  return (RESERVED_PROMPT_NAMES as readonly string[]).includes(base) ? `${base}-1` : base
}

/** The n-th candidate when a name is taken in its space: 'triage', 'triage-2', 'triage-3'... */
export function nameCandidate(base: string, attempt: number): string {
  return attempt <= 1 ? base : `${base}-${attempt}`
}

/** A label clients may set (not 'latest', which the server keeps). */
export const labelSchema = z
  .string({ error: 'prompts.labelInvalid' })
  .regex(LABEL_PATTERN, 'prompts.labelInvalid')
  .refine((label) => label !== LATEST_LABEL, 'prompts.labelLatest')

export const labelsSchema = z
  .array(labelSchema, { error: 'prompts.labelInvalid' })
  .max(20, 'prompts.labelInvalid')
  .transform((labels) => [...new Set(labels)])

/** A chat prompt's entries: messages, and placeholders the caller fills with messages at compile time. */
export const placeholderNamePattern = /^[a-zA-Z][a-zA-Z0-9_]*$/
export const chatMessageSchema = z.union([
  z.object({
    type: z.literal('placeholder'),
    name: z.string().regex(placeholderNamePattern, 'prompts.placeholderInvalid'),
  }),
  // Extra keys (the SDK sends type: 'chatmessage') are dropped.
  z.object({
    role: z
      .string({ error: 'prompts.chatMessageInvalid' })
      .trim()
      .min(1, 'prompts.chatMessageInvalid')
      .max(50),
    content: z.string({ error: 'prompts.chatMessageInvalid' }),
  }),
])
export type ChatEntry = z.infer<typeof chatMessageSchema>
export type ChatMessage = Extract<ChatEntry, { role: string }>

export const chatPromptSchema = z
  .array(chatMessageSchema, { error: 'prompts.chatMessageInvalid' })
  .min(1, 'prompts.chatMessageInvalid')
  .max(200, 'prompts.chatMessageInvalid')
  .superRefine((entries, ctx) => {
    const clash = placeholderClash(entries)
    if (clash) ctx.addIssue({ code: 'custom', message: 'prompts.placeholderClash', params: { name: clash } })
  })

/**
 * Levels a config may nest, the config itself being the first: deeper JSON made the server's
 * recursive walks (comparing configs, storing them) fail with a 500.
 */
export const MAX_CONFIG_DEPTH = 20

/** Whether `value` nests at most `max` levels of objects and arrays; walked without recursion. */
export function nestsAtMost(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (typeof item !== 'object' || item === null) continue
    if (depth > max) return false
    for (const child of Object.values(item)) stack.push([child, depth + 1])
  }
  return true
}

/** A version's config: any JSON object of at most MAX_CONFIG_DEPTH levels; null or absent is {}. */
export const promptConfigSchema = z
  .record(z.string(), z.unknown(), { error: 'prompts.configInvalid' })
  .refine((config) => nestsAtMost(config, MAX_CONFIG_DEPTH), 'prompts.configTooDeep')
  .nullable()
  .optional()
  .transform((value) => value ?? {})
export type PromptConfig = Record<string, unknown>

/** JSON with object keys sorted, so that two configs compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** Two configs hold the same settings (a new version is made only when they differ). */
export function sameConfig(a: PromptConfig, b: PromptConfig): boolean {
  return canonicalJson(a) === canonicalJson(b)
}

const variablePattern = /{{([^{}]*)}}/g
const variableNamePattern = /^\p{L}[\p{L}\p{N}_]*$/u

/**
 * The `{{variables}}` of a text, in order of first use, valid names only. Mustache's other tags
 * name variables too: `{{{raw}}}`, `{{&raw}}` and sections `{{#list}}…{{/list}}`, `{{^none}}`;
 * comments `{{! … }}` and partials `{{> … }}` do not.
 */
export function variablesOf(text: string): string[] {
  const names = new Set<string>()
  for (const match of text.matchAll(variablePattern)) {
    const name = (match[1] ?? '').trim().replace(/^[#^&/]\s*/, '')
    if (variableNamePattern.test(name)) names.add(name)
  }
  return [...names]
}

/** A name used both as a variable and as a placeholder (Langfuse refuses it), or null. */
export function placeholderClash(entries: readonly ChatEntry[]): string | null {
  const placeholders = new Set(entries.flatMap((entry) => ('type' in entry ? [entry.name] : [])))
  for (const entry of entries) {
    if ('content' in entry) {
      const clash = variablesOf(entry.content).find((name) => placeholders.has(name))
      if (clash) return clash
    }
  }
  return null
}

/** Why a chat prompt's stored body (its entries as JSON) is refused, or null when it is valid. */
export function chatBodyProblem(body: string): { key: string; params?: { name: string } } | null {
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return { key: 'prompts.chatMessageInvalid' }
  }
  const parsed = chatPromptSchema.safeParse(value)
  if (parsed.success) return null
  // The clash check runs only on entries that parsed, so the value is entries here.
  if (parsed.error.issues[0]?.message === 'prompts.placeholderClash') {
    return { key: 'prompts.placeholderClash', params: { name: placeholderClash(value as ChatEntry[]) ?? '' } }
  }
  // A placeholder's bad name fails both arms of the entry union; say which rule it broke.
  const badPlaceholder =
    Array.isArray(value) &&
    value.some(
      (entry: { type?: unknown; name?: unknown } | null) =>
        entry?.type === 'placeholder' && !placeholderNamePattern.test(String(entry.name ?? '')),
    )
  return { key: badPlaceholder ? 'prompts.placeholderInvalid' : 'prompts.chatMessageInvalid' }
}

/** How a version's body is stored: the text itself, or a chat prompt's entries as JSON. */
export function serializePromptBody(type: PromptType, prompt: string | readonly ChatEntry[]): string {
  return type === 'chat' ? JSON.stringify(prompt) : (prompt as string)
}

/** The stored body back as the API's `prompt`: a string, or the chat entries. */
export function parsePromptBody(type: PromptType, body: string): string | ChatEntry[] {
  if (type === 'text') return body
  try {
    const parsed = chatPromptSchema.safeParse(JSON.parse(body))
    if (parsed.success) return parsed.data
  } catch {
    // A body edited as plain text in the app before it became a chat prompt: one user message.
  }
  return [{ role: 'user', content: body }]
}

/**
 * The labels of one version as the API shows them: its own labels, 'production' when it is the
 * current version and 'latest' when it is the highest, sorted with those two first.
 */
export function versionLabels(
  stored: readonly string[],
  flags: { isProduction: boolean; isLatest: boolean },
): string[] {
  const system = [
    ...(flags.isProduction ? [PRODUCTION_LABEL] : []),
    ...(flags.isLatest ? [LATEST_LABEL] : []),
  ]
  return [...system, ...[...stored].filter((label) => !system.includes(label)).sort()]
}

/** `PUT /api/v1/prompts/:id/labels`: put a label on one of the prompt's versions. */
export const setLabelInput = z.object({
  label: labelSchema,
  versionId: z.string({ error: 'prompts.versionNotFound' }).min(1, 'prompts.versionNotFound'),
})

/** One move in a prompt's label history. */
export const labelEventSchema = z.object({
  id: z.uuid(),
  label: z.string(),
  /** Null: the label was not set before (or, for toVersion, it was removed). */
  fromVersion: z.number().int().nullable(),
  toVersion: z.number().int().nullable(),
  actorUserId: z.string().nullable(),
  /** Shown to the actor and to members of the prompt's team; else null. */
  actorEmail: z.string().nullable(),
  /** The API key that made the move, when one did. */
  apiKeyName: z.string().nullable(),
  createdAt: z.string(),
})
export type LabelEvent = z.infer<typeof labelEventSchema>

/** A team's protected labels (only its admins move them). */
export const protectedLabelsInput = z.object({
  labels: z
    .array(z.string({ error: 'prompts.labelInvalid' }).regex(LABEL_PATTERN, 'prompts.labelInvalid'), {
      error: 'prompts.labelInvalid',
    })
    .max(20, 'prompts.labelInvalid')
    .refine((labels) => !labels.includes(LATEST_LABEL), 'prompts.labelLatest')
    .transform((labels) => [...new Set(labels)].sort()),
})
