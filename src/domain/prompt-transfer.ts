import { z } from 'zod'
import { titleSchema } from './fields.ts'
import {
  LABEL_PATTERN,
  LATEST_LABEL,
  PRODUCTION_LABEL,
  type PromptType,
  promptConfigSchema,
  promptNameSchema,
  promptTypes,
} from './prompt-names.ts'
import { type Variables, variablesInput } from './prompt-variables.ts'
import { promptBodySchema } from './prompts.ts'

/**
 * Moving prompts between spaces and instances: one JSON document per export, a folder of
 * Markdown files for Git, and the import that reads these and a Langfuse export.
 */
export const PROMPTS_FORMAT = 'promptfolio.prompts/1'
/** The most prompts one import takes (one transaction). */
export const IMPORT_MAX_PROMPTS = 10_000

/** A prompt in an export: every version with its config and labels. */
export type ExportedPrompt = {
  id: string
  name: string
  title: string
  description: string | null
  type: PromptType
  tags: string[]
  visibility: 'private' | 'team'
  team: string | null
  createdAt: string
  updatedAt: string
  currentVersion: number | null
  versions: {
    version: number
    body: string
    config: Record<string, unknown>
    variables: Variables
    changelog: string | null
    labels: string[]
    createdAt: string
  }[]
}

export interface PromptsDocument {
  format: typeof PROMPTS_FORMAT
  exportedAt: string
  prompts: ExportedPrompt[]
}

/** A prompt as the import works with it, whatever the file it came from. */
const importedVersionSchema = z.object({
  body: promptBodySchema,
  config: promptConfigSchema,
  variables: variablesInput.transform((variables) => variables ?? []),
  changelog: z
    .string()
    .max(500, 'prompts.changelogTooLong')
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  labels: z.array(z.string()).max(20).default([]),
})
export const importedPromptSchema = z.object({
  name: promptNameSchema,
  title: titleSchema({ required: 'prompts.titleRequired', tooLong: 'prompts.titleTooLong' }),
  description: z
    .string()
    .max(2000, 'prompts.descriptionTooLong')
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  type: z.enum(promptTypes, { error: 'prompts.typeInvalid' }).default('text'),
  tags: z.array(z.string().trim().min(1).max(50)).max(20, 'prompts.tooManyTags').default([]),
  versions: z
    .array(importedVersionSchema)
    .min(1, 'prompts.contentRequired')
    .max(1000, 'prompts.tooManyVersions'),
})
export type ImportedPrompt = z.output<typeof importedPromptSchema>

/** `POST /api/v1/prompts/import`: the file's content, where it goes, and whether to only preview. */
export const importInput = z.object({
  /** A Promptfolio export, a Langfuse export (its prompts as the API returns them), or Markdown files. */
  document: z.unknown(),
  teamId: z.uuid({ error: 'prompts.teamRequired' }).nullable().default(null),
  dryRun: z.boolean().default(false),
})

export const importActions = ['create', 'version', 'unchanged', 'conflict'] as const
export const importResultSchema = z.object({
  dryRun: z.boolean(),
  created: z.number().int(),
  versioned: z.number().int(),
  unchanged: z.number().int(),
  conflicts: z.number().int(),
  items: z.array(
    z.object({
      name: z.string(),
      action: z.enum(importActions),
      /** Versions this import adds to the prompt. */
      newVersions: z.number().int(),
      problem: z.string().nullable(),
      /** With problem 'reference': which reference, and what is wrong with it. */
      detail: z.string().optional(),
    }),
  ),
})
export type ImportResult = z.infer<typeof importResultSchema>

/** The query of `GET /api/v1/prompts/export`: a space (personal without teamId) or a selection in it. */
export const exportPromptsQuery = z.object({
  teamId: z.uuid({ error: 'teams.notFound' }).optional(),
  ids: z
    .union([z.uuid(), z.array(z.uuid()).max(1000)], { error: 'prompts.notFound' })
    .optional()
    .transform((ids) => (ids === undefined ? undefined : [ids].flat())),
})

// --- Markdown, one file per prompt: front matter of `key: <JSON>` lines (valid YAML), then the body.

const FRONT = '---'

/** A prompt's current version as a Markdown file with its metadata in front matter. */
export function promptToMarkdownFile(prompt: ExportedPrompt): string {
  const current = prompt.versions.find((v) => v.version === prompt.currentVersion) ?? prompt.versions.at(-1)
  const meta: Record<string, unknown> = {
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    type: prompt.type,
    tags: prompt.tags,
    version: current?.version ?? null,
    labels: current?.labels ?? [],
    config: current?.config ?? {},
    variables: current?.variables ?? [],
    changelog: current?.changelog ?? null,
  }
  const lines = Object.entries(meta).map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
  return `${FRONT}\n${lines.join('\n')}\n${FRONT}\n${current?.body ?? ''}\n`
}

/** The file name of a prompt's Markdown: its name's folders kept, anything unsafe replaced. */
export function markdownPathOf(name: string, taken: Set<string>): string {
  const safe = name
    .split('/')
    .map((part) => part.replace(/[^\p{L}\p{N}._ -]/gu, '_').replace(/^\.+/, '_') || '_')
    .join('/')
  let path = `prompts/${safe}.md`
  for (let n = 2; taken.has(path); n++) path = `prompts/${safe}-${n}.md`
  taken.add(path)
  return path
}

function markdownToPrompt(content: string): unknown {
  const text = content.replace(/\r\n/g, '\n')
  if (!text.startsWith(`${FRONT}\n`)) return { body: text }
  const end = text.indexOf(`\n${FRONT}\n`, FRONT.length)
  if (end < 0) return { body: text }
  const meta: Record<string, unknown> = {}
  for (const line of text.slice(FRONT.length + 1, end).split('\n')) {
    const at = line.indexOf(':')
    if (at < 1) continue
    const raw = line.slice(at + 1).trim()
    try {
      meta[line.slice(0, at).trim()] = JSON.parse(raw)
    } catch {
      meta[line.slice(0, at).trim()] = raw
    }
  }
  const body = text.slice(end + FRONT.length + 2).replace(/\n$/, '')
  return {
    name: meta.name,
    title: meta.title ?? meta.name,
    description: meta.description ?? null,
    type: meta.type ?? 'text',
    tags: meta.tags ?? [],
    versions: [
      { body, config: meta.config ?? {}, changelog: meta.changelog ?? null, labels: meta.labels ?? [] },
    ],
  }
}

/** A Langfuse prompt version as its API returns it. */
interface LangfuseVersion {
  name?: unknown
  version?: unknown
  type?: unknown
  prompt?: unknown
  config?: unknown
  labels?: unknown
  tags?: unknown
  commitMessage?: unknown
}

function langfuseToPrompts(items: unknown[]): unknown[] {
  const versions = items.filter((item): item is LangfuseVersion => typeof item === 'object' && item !== null)
  const byName = new Map<string, LangfuseVersion[]>()
  for (const version of versions) {
    const name = String(version.name ?? '')
    byName.set(name, [...(byName.get(name) ?? []), version])
  }
  return [...byName.entries()].map(([name, all]) => {
    const sorted = [...all].sort((a, b) => Number(a.version ?? 0) - Number(b.version ?? 0))
    const type = sorted.at(-1)?.type === 'chat' ? 'chat' : 'text'
    return {
      name,
      title: name.split('/').at(-1) || name,
      type,
      tags: sorted.at(-1)?.tags ?? [],
      versions: sorted.map((version) => ({
        body: typeof version.prompt === 'string' ? version.prompt : JSON.stringify(version.prompt ?? ''),
        config: version.config ?? {},
        changelog: version.commitMessage ?? null,
        labels: Array.isArray(version.labels) ? version.labels : [],
      })),
    }
  })
}

export type ImportSource = 'promptfolio' | 'langfuse' | 'markdown'

/**
 * What an import document holds, as prompts to validate: a Promptfolio export (`prompts`), a
 * Langfuse export (an array of prompt versions, or `{ data: [...] }` as its list answers), or
 * Markdown files (`{ files: [{ path, content }] }`). Null when it is none of these.
 */
export function promptsOfDocument(document: unknown): { source: ImportSource; prompts: unknown[] } | null {
  if (Array.isArray(document)) return { source: 'langfuse', prompts: langfuseToPrompts(document) }
  if (typeof document !== 'object' || document === null) return null
  const value = document as Record<string, unknown>
  if (Array.isArray(value.prompts)) return { source: 'promptfolio', prompts: value.prompts }
  if (Array.isArray(value.data)) return { source: 'langfuse', prompts: langfuseToPrompts(value.data) }
  if (Array.isArray(value.files)) {
    const files = (value.files as unknown[]).filter(
      (file): file is { path?: unknown; content?: unknown } => typeof file === 'object' && file !== null,
    )
    return {
      source: 'markdown',
      prompts: files
        .filter((file) => typeof file?.content === 'string' && String(file.path ?? '').endsWith('.md'))
        .map((file) => markdownToPrompt(file.content as string)),
    }
  }
  return null
}

/** The labels of an imported version that it may carry: valid ones, not the two the server sets itself. */
export function importableLabels(labels: readonly string[]): string[] {
  return labels.filter(
    (label) => LABEL_PATTERN.test(label) && label !== LATEST_LABEL && label !== PRODUCTION_LABEL,
  )
}
