import { z } from 'zod'
import { HISTORY_PREVIEW_LENGTH, PROMPTS_PAGE, VERSIONS_PAGE } from './constants.ts'
import type { Page } from './cursor.ts'
import {
  type ListScope,
  SEARCH_MAX,
  scopeParam,
  searchParam,
  TAG_LIMITS,
  TITLE_MAX,
  tagsSchema,
  titleSchema,
} from './fields.ts'
import { cursorParam, limitParam, repeatedParam } from './list-params.ts'
import {
  chatBodyProblem,
  MAX_CONFIG_DEPTH,
  nestsAtMost,
  type PromptConfig,
  type PromptType,
  promptConfigSchema,
  promptNameProblem,
  promptNameSchema,
  promptTypes,
} from './prompt-names.ts'
import { variablesInput, variablesSchema, variableTypes } from './prompt-variables.ts'

/** A declared variable as answers show it. */
const variableSchema = z.object({
  name: z.string(),
  type: z.enum(variableTypes),
  required: z.boolean(),
  default: z.union([z.string(), z.number(), z.boolean()]).nullable(),
  description: z.string().nullable(),
  values: z.array(z.string()),
})

import { folderParam } from './prompt-folders.ts'
import { searchMatchSchema } from './prompt-search.ts'

/**
 * The prompt API's shapes. The prompts module owns the rules; other
 * modules (conversations' prompt picker) read prompts through these shapes.
 */
export const promptVisibilities = ['private', 'team'] as const
export type PromptVisibility = (typeof promptVisibilities)[number]

/** What the caller may do with a prompt (computed by the server with `promptAccess`). */
export const promptAccessSchema = z.object({
  edit: z.boolean(),
  delete: z.boolean(),
  /** Make another version current ('Set as Current'). */
  setCurrent: z.boolean(),
})
export type PromptAccess = z.infer<typeof promptAccessSchema>

const timestamp = z.string()

export const promptSummarySchema = z.object({
  id: z.uuid(),
  ownerUserId: z.string(),
  /** The owner's email when the viewer shares a team with them, else null ('Member'). */
  ownerEmail: z.string().nullable(),
  /** The owner deleted their account: the prompt stays with its team, from 'Deleted user'. */
  ownerDeleted: z.boolean(),
  teamId: z.uuid().nullable(),
  title: z.string(),
  /** Unique in its space; what the public API fetches it by (slashes make folders). */
  name: z.string(),
  type: z.enum(promptTypes),
  description: z.string().nullable(),
  tags: z.array(z.string()),
  visibility: z.enum(promptVisibilities),
  currentVersionId: z.uuid().nullable(),
  currentVersionNumber: z.number().int().nullable(),
  versionCount: z.number().int(),
  /** The labels its versions hold: 'production' (a current version) first, then the others by name; 'latest' is implied. */
  labels: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
  access: promptAccessSchema,
  /** Only in a searched list: where the prompt matched (the title first, then the description, then a body). */
  match: searchMatchSchema.optional(),
})
export type PromptSummary = z.infer<typeof promptSummarySchema>

export const promptVersionSchema = z.object({
  id: z.uuid(),
  promptId: z.uuid(),
  versionNumber: z.number().int(),
  body: z.string(),
  changelog: z.string().nullable(),
  createdByUserId: z.string().nullable(),
  createdAt: timestamp,
  /** Model settings (any JSON object). */
  config: z.record(z.string(), z.unknown()),
  /** Its declared variables; [] when none are declared. */
  variables: z.array(variableSchema),
  /** Its labels: 'production' (current), 'latest' (highest), then the others. */
  labels: z.array(z.string()),
})
export type PromptVersion = z.infer<typeof promptVersionSchema>

/**
 * A version as the history lists it: its body only as the 200-character preview the history shows
 *; the whole body is one `GET .../versions/:versionId` away (Copy, View, Use This Version).
 */
export const versionSummarySchema = promptVersionSchema.omit({ body: true }).extend({
  preview: z.string(),
  bodyLength: z.number().int(),
})
export type VersionSummary = z.infer<typeof versionSummarySchema>

/** `GET /api/v1/prompts/:id` (and the answer of every write): the prompt with its current version. */
export const promptDetailSchema = promptSummarySchema.extend({
  currentVersion: promptVersionSchema.nullable(),
})
export type PromptDetail = z.infer<typeof promptDetailSchema>

export type PromptPage = Page<PromptSummary>

/** A prompt that includes another (its "Used by" list). */
export const promptDependentSchema = z.object({ id: z.uuid(), name: z.string(), title: z.string() })
export type PromptDependent = z.infer<typeof promptDependentSchema>

/** Limits the spec leaves open; the database's check constraints hold the same numbers. */
export const PROMPT_LIMITS = {
  title: TITLE_MAX,
  description: 2000,
  body: 50_000,
  changelog: 500,
  tagLength: TAG_LIMITS.length,
  tagCount: TAG_LIMITS.count,
  search: SEARCH_MAX,
  /** Versions one prompt may have: each save adds one, and the history stays browsable. */
  versions: 1000,
} as const

const promptTitleSchema = titleSchema({ required: 'prompts.titleRequired', tooLong: 'prompts.titleTooLong' })

/** Trimmed; blank becomes null ("omitted if empty"). */
const descriptionSchema = z
  .string({ error: 'error.invalidValue' })
  .trim()
  .max(PROMPT_LIMITS.description, 'prompts.descriptionTooLong')
  .transform((value) => (value === '' ? null : value))
  .nullable()

/**
 * A text as sent, never trimmed (decision 0247): Langfuse stores it so, and a composed prompt keeps
 * the newlines around its included parts. Blank is still no content.
 */
export const promptBodySchema = z
  .string({ error: 'prompts.contentRequired' })
  .max(PROMPT_LIMITS.body, 'prompts.contentTooLong')
  .refine((body) => body.trim() !== '', 'prompts.contentRequired')

/** Trimmed; blank becomes null, and the server stores its default changelog instead. */
const changelogSchema = z
  .string({ error: 'error.invalidValue' })
  .trim()
  .max(PROMPT_LIMITS.changelog, 'prompts.changelogTooLong')
  .transform((value) => (value === '' ? null : value))
  .nullable()

/** A version's body as the edit page's history shows it: cut to 200 characters. */
export function historyPreview(body: string): string {
  return body.length > HISTORY_PREVIEW_LENGTH ? `${body.slice(0, HISTORY_PREVIEW_LENGTH)}…` : body
}

const promptTagsSchema = tagsSchema({
  invalid: 'prompts.tagsInvalid',
  tooLong: 'prompts.tagTooLong',
  tooMany: 'prompts.tooManyTags',
})

const visibilitySchema = z.enum(promptVisibilities, { error: 'prompts.visibilityInvalid' })

const promptTypeSchema = z.enum(promptTypes, { error: 'prompts.typeInvalid' })

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
    title: promptTitleSchema,
    /** Made from the title when absent (with -2, -3... while taken in its space). */
    name: promptNameSchema.optional(),
    description: descriptionSchema.optional().transform((value) => value ?? null),
    body: promptBodySchema,
    tags: promptTagsSchema.default([]),
    visibility: visibilitySchema.default('private'),
    teamId: teamIdSchema.optional().transform((value) => value ?? null),
    /** Text, or chat: then `body` is the chat entries as JSON (checked by the server). */
    type: promptTypeSchema.default('text'),
    /** Version 1's config (model, temperature...). */
    config: promptConfigSchema,
    /** Version 1's declared variables (types, defaults...). */
    variables: variablesInput.transform((value) => value ?? []),
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
    title: promptTitleSchema.optional(),
    name: promptNameSchema.optional(),
    description: descriptionSchema.optional(),
    body: promptBodySchema.optional(),
    changelog: changelogSchema.optional(),
    tags: promptTagsSchema.optional(),
    visibility: visibilitySchema.optional(),
    teamId: teamIdSchema.optional(),
    /** A config that differs from the current version's makes a new version, as a changed body does. */
    config: promptConfigSchema.optional(),
    /** Declared variables that differ from the current version's make a new version too. */
    variables: variablesInput,
    baseVersionId: z.uuid({ error: 'prompts.versionNotFound' }).nullable().optional(),
  })
  .superRefine(requireTeamForTeamVisibility)
export type UpdatePromptInput = z.input<typeof updatePromptInput>

/** The form's name: blank means "made from the title" on create (and "unchanged" on edit). */
const formNameSchema = z
  .string()
  .trim()
  .superRefine((name, ctx) => {
    const problem = name === '' ? null : promptNameProblem(name)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
  .transform((name) => (name === '' ? null : name))

/** The form's config as typed: blank is {}, anything else a JSON object. */
export const configTextSchema = z
  .string()
  .trim()
  .transform((text, ctx): PromptConfig => {
    if (text === '') return {}
    try {
      const value: unknown = JSON.parse(text)
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        if (nestsAtMost(value, MAX_CONFIG_DEPTH)) return value as PromptConfig
        ctx.addIssue({ code: 'custom', message: 'prompts.configTooDeep' })
        return z.NEVER
      }
    } catch {
      // Reported below, as for any other non-object.
    }
    ctx.addIssue({ code: 'custom', message: 'prompts.configInvalid' })
    return z.NEVER
  })

/** A config as the form shows it: blank for none, else indented JSON. */
export function configText(config: PromptConfig): string {
  return Object.keys(config).length === 0 ? '' : JSON.stringify(config, null, 2)
}

function requireChatEntries(input: { type: PromptType; body: string }, ctx: z.RefinementCtx) {
  if (input.type !== 'chat') return
  const problem = chatBodyProblem(input.body)
  if (problem) ctx.addIssue({ code: 'custom', path: ['body'], message: problem.key })
}

/**
 * The create and edit forms: the create input (the name optional, the config as JSON text) plus
 * the edit page's 'What changed?' note.
 */
export const promptFormSchema = z
  .object({
    title: promptTitleSchema,
    name: formNameSchema,
    description: descriptionSchema,
    body: promptBodySchema,
    changelog: changelogSchema,
    tags: promptTagsSchema,
    visibility: visibilitySchema,
    teamId: teamIdSchema,
    type: promptTypeSchema,
    config: configTextSchema,
    variables: variablesSchema.default([]),
  })
  .superRefine(requireTeamForTeamVisibility)
  .superRefine(requireChatEntries)

export const setCurrentVersionInput = z.object({
  versionId: z.string({ error: 'prompts.versionNotFound' }).min(1, 'prompts.versionNotFound'),
})

export type PromptScope = ListScope

/** `GET /api/v1/prompts`: the prompts list. Page size 20; a larger `limit` is clamped to it. */
export const listPromptsQuery = z.object({
  scope: scopeParam('error.invalidValue'),
  teamId: z.uuid({ error: 'error.invalidValue' }).optional(),
  search: searchParam('error.invalidValue'),
  /** Whose bodies a search reads: the current versions' (the default), or every version's. */
  versions: z.enum(['current', 'all'], { error: 'error.invalidValue' }).default('current'),
  // The same limits as a prompt's own tags: a filter can name any tag that exists, and no more.
  tags: repeatedParam('error.invalidValue')
    .optional()
    .transform((value) => value ?? [])
    .pipe(promptTagsSchema),
  visibility: visibilitySchema.optional(),
  /** Only the prompts in this folder (names starting with `folder/`), at any depth. */
  folder: folderParam,
  cursor: cursorParam.optional(),
  limit: limitParam(PROMPTS_PAGE),
})

/** `GET /api/v1/prompts/tags`: the distinct tags of the prompts in a scope, for the tag filter. */
export const promptTagsQuery = listPromptsQuery.pick({ scope: true, teamId: true })

/** `GET /api/v1/prompts/:id/versions`: the history, newest first, a page at a time. */
export const listVersionsQuery = z.object({
  cursor: cursorParam.optional(),
  limit: limitParam(VERSIONS_PAGE),
})
