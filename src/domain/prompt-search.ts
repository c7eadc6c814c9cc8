import { z } from 'zod'

/**
 * Search in prompts: where a prompt matched a search, and the excerpt the list shows
 * with the matched words marked. Highlights are character ranges into `snippet`, so the web marks
 * them as elements and never renders the prompt's text as HTML.
 */
export const searchMatchFields = ['title', 'description', 'body'] as const

export const searchHighlightSchema = z.object({ start: z.number().int(), end: z.number().int() })
export type SearchHighlight = z.infer<typeof searchHighlightSchema>

export const searchMatchSchema = z.object({
  field: z.enum(searchMatchFields),
  /** The version whose body matched (the current one when it does, else the newest that does). */
  versionNumber: z.number().int().nullable(),
  snippet: z.string(),
  highlights: z.array(searchHighlightSchema),
})
export type SearchMatch = z.infer<typeof searchMatchSchema>

/** How many characters of context the snippet keeps around the first match. */
export const SNIPPET_LENGTH = 160

/**
 * The words of a search as the full-text query reads them (websearch syntax: quotes, `or`, a
 * leading `-` for "not"), without the operators; the negated words are not highlighted.
 */
export function searchTerms(search: string): string[] {
  const terms = new Set<string>()
  const whole = search.trim().toLowerCase()
  if (whole) terms.add(whole)
  for (const raw of whole.split(/\s+/)) {
    if (raw.startsWith('-') || raw === 'or') continue
    const word = raw.replace(/^["']+|["']+$/g, '')
    if (word) terms.add(word)
  }
  // Longest first, so 'email draft' is marked whole before 'email' alone.
  return [...terms].sort((a, b) => b.length - a.length)
}

/** Every range of `text` that one of `terms` covers, left to right, none overlapping. */
export function findHighlights(text: string, terms: readonly string[]): SearchHighlight[] {
  const lower = text.toLowerCase()
  const ranges: SearchHighlight[] = []
  for (const term of terms) {
    let from = 0
    for (;;) {
      const start = lower.indexOf(term, from)
      if (start < 0) break
      const end = start + term.length
      if (!ranges.some((r) => start < r.end && end > r.start)) ranges.push({ start, end })
      from = end
    }
  }
  return ranges.sort((a, b) => a.start - b.start)
}

/**
 * An excerpt of `text` around the first place `search` matches, whitespace made single-line,
 * '…' where it was cut, with the ranges to mark. Text with no literal match (a full-text match of
 * words apart) gives its beginning, unmarked.
 */
export function searchSnippet(
  text: string,
  search: string,
  length = SNIPPET_LENGTH,
): Omit<SearchMatch, 'field' | 'versionNumber'> {
  // Same length replacement, so ranges found here stay true in the excerpt.
  const flat = text.replace(/\s/g, ' ')
  const all = findHighlights(flat, searchTerms(search))
  const first = all[0]
  let start = first ? Math.max(0, first.start - Math.floor(length / 3)) : 0
  // Do not cut a word in two at the start.
  if (start > 0) {
    const space = flat.lastIndexOf(' ', start)
    if (space >= 0 && start - space < 20) start = space + 1
  }
  const end = Math.min(flat.length, start + length)
  const prefix = start > 0 ? '…' : ''
  const suffix = end < flat.length ? '…' : ''
  const snippet = `${prefix}${flat.slice(start, end)}${suffix}`
  const highlights = all
    .filter((r) => r.start >= start && r.end <= end)
    .map((r) => ({ start: r.start - start + prefix.length, end: r.end - start + prefix.length }))
  return { snippet, highlights }
}

/** Splits a snippet into plain and marked parts, for rendering the marks as elements. */
export function snippetParts(
  snippet: string,
  highlights: readonly SearchHighlight[],
): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = []
  let at = 0
  for (const { start, end } of [...highlights].sort((a, b) => a.start - b.start)) {
    if (start < at || end > snippet.length || end <= start) continue
    if (start > at) parts.push({ text: snippet.slice(at, start), marked: false })
    parts.push({ text: snippet.slice(start, end), marked: true })
    at = end
  }
  if (at < snippet.length) parts.push({ text: snippet.slice(at), marked: false })
  return parts
}
