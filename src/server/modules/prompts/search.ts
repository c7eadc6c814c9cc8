import { type AnyColumn, and, desc, eq, type SQL, sql } from 'drizzle-orm'
import { decodeCursor } from '../../../domain/cursor.ts'
import { type SearchMatch, searchSnippet } from '../../../domain/prompt-search.ts'
import type { Db } from '../../db/client.ts'
import { builtOnce } from '../../db/prepared.ts'
import { containsPattern, containsText, cursorTimestamp } from '../../db/queries.ts'
import { prompts, promptVersions } from '../../db/schema/index.ts'

/**
 * Search in the prompts list (decision 0175): titles, descriptions and every version's
 * body, by whole words (full-text, `websearch_to_tsquery('simple', …)`) and by any part of a word
 * (ILIKE, served by trigram indexes). Both kinds use the indexes of migration 0175; a body's words
 * are read from its stored vector (`body_search`, decision 0215), never computed per search.
 *
 * The rank is a whole number: per field 2 for a whole-word match, 1 for a part-of-word one, weighted
 * title 9 and description 3, times 100, plus the body's score (0–99, `bodyScore`). Results are
 * ordered by rank, then newest change, then id, and paged by a keyset cursor over those three
 * (`<rank>:<timestamp>|<id>`).
 */
export interface SearchParts {
  rank: SQL<number>
  matches: SQL
  order: SQL[]
  after: SQL | undefined
  cursorKey: SQL<string>
}

/**
 * The search's values as placeholders: its statements are built once per shape and run with each
 * search's values (`rankedSearchValues`). Building the ranked one anew per request cost the server
 * more CPU than the page's other three statements together.
 */
const placeholderQuery = sql`websearch_to_tsquery('simple', ${sql.placeholder('search')})`
const placeholderPattern = sql.placeholder('pattern')
/** The search's last word as a prefix (`summar:*`). */
const placeholderPrefix = sql`to_tsquery('simple', quote_literal(${sql.placeholder('lastWord')}) || ':*')`

/** A field's score: 2 for a whole-word match (its stored vector, decision 0236), 1 for a part of one. */
function fieldScore(vector: SQL | AnyColumn, text: SQL | AnyColumn): SQL {
  return sql`(CASE WHEN ${vector} @@ ${placeholderQuery} THEN 2 WHEN ${containsText(text, placeholderPattern)} THEN 1 ELSE 0 END)`
}

/**
 * The body's part of the rank (0–99, below any title or description point, decisions 0210 and
 * 0215): the current version's body ranked by full-text relevance when it has the words (50–99,
 * `ts_rank`); when it has a part of one, 30–49 where a word starts with the search's last word
 * (`summar` in "summarize", by `ts_rank` of that prefix) and 20 where the part is only inside a
 * word; a match only in an older version is 10. Only the current version's body is read for the
 * score, one per candidate prompt. (Trigram `word_similarity` ranked parts finer but cost 50 µs a
 * body: 25 ms for a user whose 500 prompts all contain the part.) A search without a word (only
 * signs) has no last word: its parts score 20.
 */
function bodyScore(hasWord: boolean, anyVersionMatches: SQL): SQL {
  const vector = sql`cv.body_search`
  const partScore = hasWord
    ? sql`CASE WHEN ${vector} @@ ${placeholderPrefix} THEN 30 + least(19, floor(ts_rank(${vector}, ${placeholderPrefix}) * 100))::integer ELSE 20 END`
    : sql`20`
  return sql`coalesce((SELECT CASE
      WHEN ${vector} @@ ${placeholderQuery} THEN 50 + least(49, floor(ts_rank(${vector}, ${placeholderQuery}) * 200))::integer
      WHEN ${containsText(sql`cv.body`, placeholderPattern)} THEN ${partScore}
    END FROM prompt_versions cv WHERE cv.id = ${prompts.currentVersionId}),
    CASE WHEN ${anyVersionMatches} THEN 10 ELSE 0 END)`
}

/** Which optional parts a ranked search statement has (with the list's filters: `ListShape`). */
export interface SearchShape {
  /** Whether the search has a word, whose prefix ranks a part of a word. */
  hasWord: boolean
  /** Whether the page comes after a cursor (placeholders cursorRank, cursorAt, cursorId). */
  cursor: boolean
}

/**
 * The ranked search's parts for one shape, over the list's `filters`. Its placeholders: search,
 * pattern and lastWord (`rankedSearchValues`), and cursorRank, cursorAt, cursorId after a cursor.
 */
export function searchParts(shape: SearchShape, filters: SQL | undefined): SearchParts {
  const query = placeholderQuery
  const pattern = placeholderPattern
  // The index's expression (migration 0236): the same words and positions as the vector of the
  // title and description joined by a space.
  const titleAndDescription = sql`(${prompts.titleSearch} || ${prompts.descriptionSearch})`
  // A match in any version's body (an older one only scores 10, see bodyScore).
  const bodyMatches = sql`EXISTS (SELECT 1 FROM prompt_versions sv WHERE sv.prompt_id = ${prompts.id}
    AND (sv.body_search @@ ${query} OR ${containsText(sql`sv.body`, pattern)}))`
  const inScope = filters ?? sql`true`
  // The scope's prompts with a matching version: one candidate arm, and the only prompts whose body
  // score is not 0 (decision 0231). As a hashed subplan it runs once per search, so the current
  // version is read and ranked for these prompts only, not for every title or description match.
  const bodyCandidates = sql`SELECT ${prompts.id} FROM ${prompts} WHERE ${inScope} AND ${bodyMatches}`
  const rank = sql<number>`(100 * (9 * ${fieldScore(prompts.titleSearch, prompts.title)}
    + 3 * ${fieldScore(prompts.descriptionSearch, sql`coalesce(${prompts.description}, '')`)})
    + CASE WHEN ${prompts.id} IN (${bodyCandidates}) THEN ${bodyScore(shape.hasWord, bodyMatches)} ELSE 0 END)`
  // The matching ids, found through the indexes with the list's filters inside (the inner
  // `prompts` shadows the outer one): the title and description indexes ANDed with the scope's,
  // and the scope's prompts with a matching version. One OR over every row of the scope would
  // compute each row's text vector: 10,000 of them for a user with 10,000 prompts (decision 0205).
  // A semi-join, not a join: a prompt's versions are read only up to the first that matches, and
  // a common part of a word (`summar`) no longer yields every matching version (decision 0215).
  const matches = sql`${prompts.id} IN (
    SELECT ${prompts.id} FROM ${prompts} WHERE ${inScope} AND (${titleAndDescription} @@ ${query}
      OR ${containsText(prompts.title, pattern)} OR ${containsText(prompts.description, pattern)})
    UNION ALL
    ${bodyCandidates})`
  const ph = sql.placeholder
  const after = shape.cursor
    ? sql`(${rank}, ${prompts.updatedAt}, ${prompts.id}) < (${ph('cursorRank')}::integer, ${ph('cursorAt')}::timestamptz, ${ph('cursorId')}::uuid)`
    : undefined
  return {
    rank,
    matches,
    order: [sql`rank DESC`, sql`${prompts.updatedAt} DESC`, sql`${prompts.id} DESC`],
    after,
    cursorKey: sql<string>`(${rank})::text || ':' || ${cursorTimestamp(prompts.updatedAt)}`,
  }
}

/** The values of a ranked search statement's placeholders for `search` and its page's cursor. */
export function rankedSearchValues(search: string, cursor: string | undefined) {
  const lastWord = search.match(/[\p{L}\p{N}]+/gu)?.at(-1)
  let after: { cursorRank: number; cursorAt: string; cursorId: string } | undefined
  if (cursor) {
    const { at, id } = decodeCursor(cursor, 'ranked')
    const separator = at.indexOf(':')
    after = { cursorRank: Number(at.slice(0, separator)), cursorAt: at.slice(separator + 1), cursorId: id }
  }
  return {
    shape: { hasWord: lastWord !== undefined, cursor: after !== undefined } satisfies SearchShape,
    values: { search, pattern: containsPattern(search), lastWord, ...after },
  }
}

/**
 * Whether a prompt's title and description match, read back from its rank: the rank is
 * `100 * (9 * title + 3 * description) + body` with each field's score 0–2 and the body's 0–99, so
 * its hundreds hold both fields' scores. A statement of its own asked the database again.
 */
export function fieldHitsOf(rank: number): { title: boolean; description: boolean } {
  const fields = Math.floor(rank / 100)
  return { title: fields >= 9, description: fields % 9 >= 3 }
}

/** The version whose body matches, per prompt: the current one first, else the newest (`builtOnce`). */
const bodyHitsStatement = builtOnce((db) =>
  db
    .selectDistinctOn([promptVersions.promptId], {
      promptId: promptVersions.promptId,
      versionNumber: promptVersions.versionNumber,
      body: promptVersions.body,
    })
    .from(promptVersions)
    .innerJoin(prompts, eq(prompts.id, promptVersions.promptId))
    .where(
      and(
        sql`${promptVersions.promptId} = ANY(${sql.placeholder('ids')}::uuid[])`,
        sql`(${promptVersions.bodySearch} @@ ${placeholderQuery} OR ${containsText(promptVersions.body, placeholderPattern)})`,
      ),
    )
    .orderBy(
      promptVersions.promptId,
      sql`(${promptVersions.id} = ${prompts.currentVersionId}) DESC`,
      desc(promptVersions.versionNumber),
    )
    .prepare(''),
)

/** Where a prompt matched when its title or description did (its rank says which), with the excerpt. */
export function fieldMatchOf(
  row: { title: string; description: string | null; rank: number },
  search: string,
): SearchMatch | undefined {
  const hit = fieldHitsOf(row.rank)
  if (hit.title) return { field: 'title', versionNumber: null, ...searchSnippet(row.title, search) }
  if (hit.description && row.description) {
    return { field: 'description', versionNumber: null, ...searchSnippet(row.description, search) }
  }
  return undefined
}

/**
 * Where each of these prompts matched in a body: the current version's when it matches, else the
 * newest version that does, with the excerpt. For the prompts whose title and description did not.
 */
export async function bodyMatchesOf(
  db: Db,
  ids: readonly string[],
  search: string,
): Promise<Map<string, SearchMatch>> {
  const found = new Map<string, SearchMatch>()
  if (ids.length === 0) return found
  const versions = await bodyHitsStatement(db, undefined).execute({
    search,
    pattern: containsPattern(search),
    ids,
  })
  for (const version of versions) {
    found.set(version.promptId, {
      field: 'body',
      versionNumber: version.versionNumber,
      ...searchSnippet(version.body, search),
    })
  }
  return found
}
