import { z } from 'zod'
import type { MessageKey } from './messages/index.ts'

/**
 * The fields prompts and conversations share — titles, tags, list scopes and searches — with their
 * limits, written once. Each object keeps its own wording of the errors (the spec words them per
 * screen), passed in as message keys.
 */
export const TITLE_MAX = 200
export const TAG_LIMITS = { length: 50, count: 20 } as const
export const SEARCH_MAX = 200

export function titleSchema(messages: { required: MessageKey; tooLong: MessageKey }) {
  return z
    .string({ error: messages.required })
    .trim()
    .min(1, messages.required)
    .max(TITLE_MAX, messages.tooLong)
}

/** Trims each tag and drops empties and duplicates, keeping the order they were added in. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))]
}

export interface TagMessages {
  invalid: MessageKey
  tooLong: MessageKey
  tooMany: MessageKey
}

/** A list of tags, normalized, each and all within the limits (errors on the field `tags`). */
export function tagsSchema(messages: TagMessages) {
  return z
    .array(z.string({ error: messages.invalid }), { error: messages.invalid })
    .transform(normalizeTags)
    .refine((tags) => tags.every((tag) => tag.length <= TAG_LIMITS.length), messages.tooLong)
    .refine((tags) => tags.length <= TAG_LIMITS.count, messages.tooMany)
}

/**
 * The tag filter of a shared or hand-edited URL, cut to what a filter may name: a tag longer than
 * any tag can be matches nothing, and the server refuses more tags than an object may have.
 */
export function tagFilterFromUrl(values: readonly string[]): string[] {
  return normalizeTags(values)
    .filter((tag) => tag.length <= TAG_LIMITS.length)
    .slice(0, TAG_LIMITS.count)
}

/** Whose items a list shows: the caller's own, or their teams'. */
export const listScopes = ['owner', 'team'] as const
export type ListScope = (typeof listScopes)[number]

export function scopeParam(invalid: MessageKey) {
  return z.enum(listScopes, { error: invalid }).default('owner')
}

/** A list's `search`: trimmed, at most 200 characters, absent when blank. */
export function searchParam(tooLong: MessageKey) {
  return z
    .string({ error: tooLong })
    .trim()
    .max(SEARCH_MAX, tooLong)
    .optional()
    .transform((value) => value || undefined)
}
