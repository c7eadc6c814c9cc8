import { z } from 'zod'
import { HISTORY_PREVIEW_LENGTH, PROMPTS_PAGE_SIZE } from './constants.ts'
import type { Page } from './cursor.ts'
import { cursorParam, repeatedParam } from './list-params.ts'

/**
 * The prompt API's shapes (§3 Prompt, Prompt version). The prompts module owns the rules; other
 * modules (conversations' prompt picker) read prompts through these shapes.
 */
export const promptVisibilities = ['private', 'team'] as const
export type PromptVisibility = (typeof promptVisibilities)[number]

export interface PromptSummary {
  id: string
  ownerUserId: string
  /** The owner's email when the viewer shares a team with them, else null ('Member'). */
  ownerEmail: string | null
  teamId: string | null
  title: string
  description: string | null
  tags: string[]
  visibility: PromptVisibility
  currentVersionId: string | null
  currentVersionNumber: number | null
  /** The current version's body, so a list row can copy it without another request. */
  currentVersionBody: string | null
  versionCount: number
  createdAt: string
  updatedAt: string
}

export interface PromptVersion {
  id: string
  promptId: string
  versionNumber: number
  body: string
  changelog: string | null
  createdByUserId: string | null
  createdAt: string
}

/** `GET /api/v1/prompts/:id` (and the answer of every write): what the detail and edit pages need. */
export interface PromptDetail {
  prompt: PromptSummary
  /** Newest first. */
  versions: PromptVersion[]
  /** Only the owner edits, deletes and sets the current version (§6). */
  canEdit: boolean
}

export type PromptPage = Page<PromptSummary>

/** Limits the spec leaves open; the database's check constraints hold the same numbers. */
export const PROMPT_LIMITS = {
  title: 200,
  description: 2000,
  body: 50_000,
  changelog: 500,
  tagLength: 50,
  tagCount: 20,
  search: 200,
} as const

const titleSchema = z
  .string({ error: 'prompts.titleRequired' })
  .trim()
  .min(1, 'prompts.titleRequired')
  .max(PROMPT_LIMITS.title, 'prompts.titleTooLong')

/** Trimmed; blank becomes null ("omitted if empty", §5). */
const descriptionSchema = z
  .string({ error: 'error.invalidValue' })
  .trim()
  .max(PROMPT_LIMITS.description, 'prompts.descriptionTooLong')
  .transform((value) => (value === '' ? null : value))
  .nullable()

export const promptBodySchema = z
  .string({ error: 'prompts.contentRequired' })
  .trim()
  .min(1, 'prompts.contentRequired')
  .max(PROMPT_LIMITS.body, 'prompts.contentTooLong')

/** Trimmed; blank becomes null, and the server stores its default changelog instead (§5). */
const changelogSchema = z
  .string({ error: 'error.invalidValue' })
  .trim()
  .max(PROMPT_LIMITS.changelog, 'prompts.changelogTooLong')
  .transform((value) => (value === '' ? null : value))
  .nullable()

/** A version's body as the edit page's history shows it: cut to 200 characters (§9). */
export function historyPreview(body: string): string {
  return body.length > HISTORY_PREVIEW_LENGTH ? `${body.slice(0, HISTORY_PREVIEW_LENGTH)}…` : body
}

/** Trims each tag and drops empties and duplicates (§5), keeping the order they were added in. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))]
}

/**
 * The tag filter of a shared or hand-edited URL, cut to what a filter may name: a tag longer than
 * any tag can be matches nothing, and the server refuses more tags than a prompt may have.
 */
export function tagFilterFromUrl(
  values: readonly string[],
  limits = { count: PROMPT_LIMITS.tagCount, length: PROMPT_LIMITS.tagLength },
): string[] {
  return normalizeTags(values)
    .filter((tag) => tag.length <= limits.length)
    .slice(0, limits.count)
}

export const tagsSchema = z
  .array(z.string({ error: 'prompts.tagsInvalid' }), { error: 'prompts.tagsInvalid' })
  .transform(normalizeTags)
  .pipe(
    z
      .array(z.string().max(PROMPT_LIMITS.tagLength, 'prompts.tagTooLong'))
      .max(PROMPT_LIMITS.tagCount, 'prompts.tooManyTags'),
  )

const visibilitySchema = z.enum(promptVisibilities, { error: 'prompts.visibilityInvalid' })

/** A team id, or none: '' and null both mean "no team". */
const teamIdSchema = z
  .union([z.literal(''), z.uuid({ error: 'prompts.teamRequired' })], { error: 'prompts.teamRequired' })
  .transform((value) => (value === '' ? null : value))
  .nullable()

function requireTeamForTeamVisibility(
  input: { visibility?: PromptVisibility; teamId?: string | null },
  ctx: z.RefinementCtx,
) {
  if (input.visibility === 'team' && !input.teamId) {
    ctx.addIssue({ code: 'custom', path: ['teamId'], message: 'prompts.teamRequired' })
  }
}

/** `POST /api/v1/prompts`: the prompt and the body of its version 1. */
export const createPromptInput = z
  .object({
    title: titleSchema,
    description: descriptionSchema.optional().transform((value) => value ?? null),
    body: promptBodySchema,
    tags: tagsSchema.default([]),
    visibility: visibilitySchema.default('private'),
    teamId: teamIdSchema.optional().transform((value) => value ?? null),
  })
  .superRefine(requireTeamForTeamVisibility)
export type CreatePromptInput = z.input<typeof createPromptInput>

/**
 * `PATCH /api/v1/prompts/:id`: any of the metadata, and optionally a body. A body that differs from
 * the current version's becomes the next version (with `changelog`). `baseVersionId` is the version
 * the editor started from: when another save made a different version current meanwhile, the save
 * is refused (409) instead of silently replacing it.
 */
export const updatePromptInput = z
  .object({
    title: titleSchema.optional(),
    description: descriptionSchema.optional(),
    body: promptBodySchema.optional(),
    changelog: changelogSchema.optional(),
    tags: tagsSchema.optional(),
    visibility: visibilitySchema.optional(),
    teamId: teamIdSchema.optional(),
    baseVersionId: z.uuid({ error: 'prompts.versionNotFound' }).nullable().optional(),
  })
  .superRefine(requireTeamForTeamVisibility)
export type UpdatePromptInput = z.input<typeof updatePromptInput>

/** The create and edit forms: the create input plus the edit page's 'What changed?' note. */
export const promptFormSchema = z
  .object({
    title: titleSchema,
    description: descriptionSchema,
    body: promptBodySchema,
    changelog: changelogSchema,
    tags: tagsSchema,
    visibility: visibilitySchema,
    teamId: teamIdSchema,
  })
  .superRefine(requireTeamForTeamVisibility)
export type PromptFormValues = z.input<typeof promptFormSchema>

export const setCurrentVersionInput = z.object({
  versionId: z.string({ error: 'prompts.versionNotFound' }).min(1, 'prompts.versionNotFound'),
})

export const promptScopes = ['owner', 'team'] as const
export type PromptScope = (typeof promptScopes)[number]

/** A query value that may be given once or repeated (`tags=a&tags=b`). */

/** `GET /api/v1/prompts`: §7's list call. Page size 20 (§9); a larger `limit` is clamped to it. */
export const listPromptsQuery = z.object({
  scope: z.enum(promptScopes, { error: 'error.invalidValue' }).default('owner'),
  teamId: z.uuid({ error: 'error.invalidValue' }).optional(),
  search: z
    .string({ error: 'error.invalidValue' })
    .trim()
    .max(PROMPT_LIMITS.search, 'error.invalidValue')
    .optional()
    .transform((value) => value || undefined),
  // The same limits as a prompt's own tags: a filter can name any tag that exists, and no more.
  tags: repeatedParam('error.invalidValue')
    .optional()
    .transform((value) => value ?? [])
    .pipe(tagsSchema),
  visibility: visibilitySchema.optional(),
  cursor: cursorParam.optional(),
  limit: z.coerce
    .number({ error: 'error.invalidValue' })
    .int('error.invalidValue')
    .min(1, 'error.invalidValue')
    .optional()
    .transform((value) => Math.min(value ?? PROMPTS_PAGE_SIZE, PROMPTS_PAGE_SIZE)),
})
export type ListPromptsQuery = z.input<typeof listPromptsQuery>

/** `GET /api/v1/prompts/tags`: the distinct tags of the prompts in a scope, for the tag filter. */
export const promptTagsQuery = listPromptsQuery.pick({ scope: true, teamId: true })
