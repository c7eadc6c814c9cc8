import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import { decodeCursor } from '../../../domain/cursor.ts'
import { type SearchMatch, searchSnippet } from '../../../domain/prompt-search.ts'
import type { Db } from '../../db/client.ts'
import { builtOnce } from '../../db/prepared.ts'
import { containsPattern, containsText, cursorTimestamp } from '../../db/queries.ts'
import { prompts, promptVersions } from '../../db/schema/index.ts'

/**
 * Search in the prompts list (issue 17, decision 0175): titles, descriptions and every version's
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

function fieldScore(text: SQL, query: SQL, pattern: string): SQL {
  return sql`(CASE WHEN to_tsvector('simple', ${text}) @@ ${query} THEN 2 WHEN ${containsText(text, pattern)} THEN 1 ELSE 0 END)`
}

/**
 * The body's part of the rank (0–99, below any title or description point, decisions 0210 and
 * 0215): the current version's body ranked by full-text relevance when it has the words (50–99,
 * `ts_rank`); when it has a part of one, 30–49 where a word starts with the search's last word
 * (`summar` in "summarize", by `ts_rank` of that prefix) and 20 where the part is only inside a
 * word; a match only in an older version is 10. Only the current version's body is read for the
 * score, one per candidate prompt. (Trigram `word_similarity` ranked parts finer but cost 50 µs a
 * body: 25 ms for a user whose 500 prompts all contain the part.)
 */
function bodyScore(query: SQL, search: string, anyVersionMatches: SQL): SQL {
  const vector = sql`cv.body_search`
  const lastWord = search.match(/[\p{L}\p{N}]+/gu)?.at(-1)
  const prefix = lastWord ? sql`to_tsquery('simple', quote_literal(${lastWord}) || ':*')` : undefined
  const partScore = prefix
    ? sql`CASE WHEN ${vector} @@ ${prefix} THEN 30 + least(19, floor(ts_rank(${vector}, ${prefix}) * 100))::integer ELSE 20 END`
    : sql`20`
  return sql`coalesce((SELECT CASE
      WHEN ${vector} @@ ${query} THEN 50 + least(49, floor(ts_rank(${vector}, ${query}) * 200))::integer
      WHEN ${containsText(sql`cv.body`, search)} THEN ${partScore}
    END FROM prompt_versions cv WHERE cv.id = ${prompts.currentVersionId}),
    CASE WHEN ${anyVersionMatches} THEN 10 ELSE 0 END)`
}

export function searchParts(
  search: string,
  cursor: string | undefined,
  filters: SQL | undefined,
): SearchParts {
  const query = sql`websearch_to_tsquery('simple', ${search})`
  const titleAndDescription = sql`${prompts.title} || ' ' || coalesce(${prompts.description}, '')`
  // A match in any version's body (an older one only scores 10, see bodyScore).
  const bodyMatches = sql`EXISTS (SELECT 1 FROM prompt_versions sv WHERE sv.prompt_id = ${prompts.id}
    AND (sv.body_search @@ ${query} OR ${containsText(sql`sv.body`, search)}))`
  const rank = sql<number>`(100 * (9 * ${fieldScore(sql`${prompts.title}`, query, search)}
    + 3 * ${fieldScore(sql`coalesce(${prompts.description}, '')`, query, search)}) + ${bodyScore(query, search, bodyMatches)})`
  // The matching ids, found through the indexes with the list's filters inside (the inner
  // `prompts` shadows the outer one): the title and description indexes ANDed with the scope's,
  // and the scope's prompts with a matching version. One OR over every row of the scope would
  // compute each row's text vector: 10,000 of them for a user with 10,000 prompts (decision 0205).
  // A semi-join, not a join: a prompt's versions are read only up to the first that matches, and
  // a common part of a word (`summar`) no longer yields every matching version (decision 0215).
  const inScope = filters ?? sql`true`
  const matches = sql`${prompts.id} IN (
    SELECT ${prompts.id} FROM ${prompts} WHERE ${inScope} AND (to_tsvector('simple', ${titleAndDescription}) @@ ${query}
      OR ${containsText(prompts.title, search)} OR ${containsText(prompts.description, search)})
    UNION ALL
    SELECT ${prompts.id} FROM ${prompts} WHERE ${inScope} AND ${bodyMatches})`
  let after: SQL | undefined
  if (cursor) {
    const { at, id } = decodeCursor(cursor, 'ranked')
    const separator = at.indexOf(':')
    const position = Number(at.slice(0, separator))
    const timestamp = at.slice(separator + 1)
    after = sql`(${rank}, ${prompts.updatedAt}, ${prompts.id}) < (${position}::integer, ${timestamp}::timestamptz, ${id}::uuid)`
  }
  return {
    rank,
    matches,
    order: [sql`rank DESC`, sql`${prompts.updatedAt} DESC`, sql`${prompts.id} DESC`],
    after,
    cursorKey: sql<string>`(${rank})::text || ':' || ${cursorTimestamp(prompts.updatedAt)}`,
  }
}

const placeholderQuery = sql`websearch_to_tsquery('simple', ${sql.placeholder('search')})`
const placeholderPattern = sql.placeholder('pattern')

/** Whether a page's titles and descriptions match (`matchesOf`; built once, `builtOnce`). */
const fieldHitsStatement = builtOnce((db) =>
  db
    .select({
      id: prompts.id,
      titleHit: sql<boolean>`(to_tsvector('simple', ${prompts.title}) @@ ${placeholderQuery} OR ${containsText(prompts.title, placeholderPattern)})`,
      descriptionHit: sql<boolean>`(to_tsvector('simple', coalesce(${prompts.description}, '')) @@ ${placeholderQuery} OR ${containsText(prompts.description, placeholderPattern)})`,
    })
    .from(prompts)
    .where(sql`${prompts.id} = ANY(${sql.placeholder('ids')}::uuid[])`)
    .prepare(''),
)

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

/**
 * Where each of a page's prompts matched: its title, else its description, else a body (the
 * current version's when it matches, else the newest version that does), with the excerpt.
 */
export async function matchesOf(
  db: Db,
  rows: readonly { id: string; title: string; description: string | null; currentVersionId: string | null }[],
  search: string,
): Promise<Map<string, SearchMatch>> {
  const found = new Map<string, SearchMatch>()
  if (rows.length === 0) return found
  const values = { search, pattern: containsPattern(search) }
  const hits = await fieldHitsStatement(db, undefined).execute({ ...values, ids: rows.map((row) => row.id) })
  const hitOf = new Map(hits.map((hit) => [hit.id, hit]))
  const needBody: string[] = []
  for (const row of rows) {
    const hit = hitOf.get(row.id)
    if (hit?.titleHit) {
      found.set(row.id, { field: 'title', versionNumber: null, ...searchSnippet(row.title, search) })
    } else if (hit?.descriptionHit && row.description) {
      found.set(row.id, {
        field: 'description',
        versionNumber: null,
        ...searchSnippet(row.description, search),
      })
    } else {
      needBody.push(row.id)
    }
  }
  if (needBody.length > 0) {
    const versions = await bodyHitsStatement(db, undefined).execute({ ...values, ids: needBody })
    for (const version of versions) {
      found.set(version.promptId, {
        field: 'body',
        versionNumber: version.versionNumber,
        ...searchSnippet(version.body, search),
      })
    }
  }
  return found
}
