import { type AnyColumn, and, desc, eq, type SQL, sql } from 'drizzle-orm'
import { decodeCursor } from '../../../domain/cursor.ts'
import { type SearchMatch, searchSnippet } from '../../../domain/prompt-search.ts'
import type { Db } from '../../db/client.ts'
import { builtOnce } from '../../db/prepared.ts'
import { containsPattern, containsText, cursorTimestamp } from '../../db/queries.ts'
import { prompts, promptVersions } from '../../db/schema/index.ts'

/**
 * Search in the prompts list (decisions 0175 and 0255): titles, descriptions and the current
 * versions' bodies (every version's when asked), by whole words (full-text,
 * `websearch_to_tsquery('simple', …)`) and by any part of a word (ILIKE, served by trigram
 * indexes). Words are read from stored vectors, never computed per search; the candidates are the
 * newest matches of each kind (`SEARCH_CANDIDATES`), found through indexes keyed by the space.
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
 * How many candidates each kind of match contributes at most (decision 0255): the space's most
 * recently changed prompts whose title or description match, as many whose current body does, and
 * (when asked) as many whose older versions do. The rank orders these; a common word in a space of
 * a million versions otherwise ranked every prompt that has it (54 s).
 */
export const SEARCH_CANDIDATES = 200

/**
 * The body's part of the rank (0–99, below any title or description point, decisions 0210 and
 * 0215): the current version's body ranked by full-text relevance when it has the words (50–99,
 * `ts_rank`); when it has a part of one, 30–49 where a word starts with the search's last word
 * (`summar` in "summarize", by `ts_rank` of that prefix) and 20 where the part is only inside a
 * word; a match only in an older version is 10 (only in a search of every version). The current
 * body and its vector are the prompt's own copies (decision 0255), so no version is read for the
 * score. (Trigram `word_similarity` ranked parts finer but cost 50 µs a body.) A search without a
 * word (only signs) has no last word: its parts score 20.
 */
function bodyScore(hasWord: boolean, olderVersionMatches: SQL | undefined): SQL {
  const vector = prompts.currentBodySearch
  const partScore = hasWord
    ? sql`CASE WHEN ${vector} @@ ${placeholderPrefix} THEN 30 + least(19, floor(ts_rank(${vector}, ${placeholderPrefix}) * 100))::integer ELSE 20 END`
    : sql`20`
  return sql`(CASE
      WHEN ${vector} @@ ${placeholderQuery} THEN 50 + least(49, floor(ts_rank(${vector}, ${placeholderQuery}) * 200))::integer
      WHEN ${containsText(prompts.currentBody, placeholderPattern)} THEN ${partScore}
      ${olderVersionMatches ? sql`WHEN ${olderVersionMatches} THEN 10` : sql``}
      ELSE 0 END)`
}

/** Which optional parts a ranked search statement has (with the list's filters: `ListShape`). */
export interface SearchShape {
  /** Whether the search has a word, whose prefix ranks a part of a word. */
  hasWord: boolean
  /** Whether the page comes after a cursor (placeholders cursorRank, cursorAt, cursorId). */
  cursor: boolean
  /** Whether older versions' bodies are searched too, not only the current ones. */
  olderVersions: boolean
}

/**
 * The ranked search's parts for one shape, over the list's `filters`. Its placeholders: search,
 * pattern and lastWord (`rankedSearchValues`), and cursorRank, cursorAt, cursorId after a cursor.
 */
export function searchParts(shape: SearchShape, filters: SQL | undefined): SearchParts {
  const query = placeholderQuery
  const pattern = placeholderPattern
  const inScope = filters ?? sql`true`
  // The index's expression (migration 0236): the same words and positions as the vector of the
  // title and description joined by a space.
  const titleAndDescription = sql`(${prompts.titleSearch} || ${prompts.descriptionSearch})`
  // A match in some version's body; only a search of every version asks (see bodyScore).
  const versionMatches = shape.olderVersions
    ? sql`EXISTS (SELECT 1 FROM prompt_versions sv WHERE sv.prompt_id = ${prompts.id}
      AND (sv.body_search @@ ${query} OR ${containsText(sql`sv.body`, pattern)}))`
    : undefined
  // One kind of match's candidates: the scope's newest prompts that have it (the inner `prompts`
  // shadows the outer one). The planner reads a rare word's few entries from the space's index and
  // sorts them, or walks a common word's space newest first until it has enough.
  const newest = (match: SQL) => sql`(SELECT ${prompts.id} FROM ${prompts} WHERE ${inScope} AND (${match})
    ORDER BY ${prompts.updatedAt} DESC, ${prompts.id} DESC LIMIT ${SEARCH_CANDIDATES})`
  const arms = [
    newest(sql`${titleAndDescription} @@ ${query}
      OR ${containsText(prompts.title, pattern)} OR ${containsText(prompts.description, pattern)}`),
    newest(sql`${prompts.currentBodySearch} @@ ${query} OR ${containsText(prompts.currentBody, pattern)}`),
    ...(versionMatches ? [newest(versionMatches)] : []),
  ]
  const rank = sql<number>`(100 * (9 * ${fieldScore(prompts.titleSearch, prompts.title)}
    + 3 * ${fieldScore(prompts.descriptionSearch, sql`coalesce(${prompts.description}, '')`)})
    + ${bodyScore(shape.hasWord, versionMatches)})`
  const matches = sql`${prompts.id} IN (${sql.join(arms, sql` UNION ALL `)})`
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
export function rankedSearchValues(search: string, cursor: string | undefined, olderVersions: boolean) {
  const lastWord = search.match(/[\p{L}\p{N}]+/gu)?.at(-1)
  let after: { cursorRank: number; cursorAt: string; cursorId: string } | undefined
  if (cursor) {
    const { at, id } = decodeCursor(cursor, 'ranked')
    const separator = at.indexOf(':')
    after = { cursorRank: Number(at.slice(0, separator)), cursorAt: at.slice(separator + 1), cursorId: id }
  }
  return {
    shape: {
      hasWord: lastWord !== undefined,
      cursor: after !== undefined,
      olderVersions,
    } satisfies SearchShape,
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
