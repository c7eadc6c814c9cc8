import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import type { listPromptsQuery, PromptPage, PromptScope, promptTagsQuery } from '../../../domain/prompts.ts'
import type { Db } from '../../db/client.ts'
import { hasAllTags, pageCondition, teamsOf, toPage } from '../../db/queries.ts'
import { prompts } from '../../db/schema/index.ts'
import { matchesOf, searchParts } from './search.ts'
import { selectSummaries, toSummary } from './summaries.ts'

/**
 * Which prompts a scope covers: 'owner' the caller's own, 'team' the team-visible prompts of
 * the caller's teams (or of one of them). Membership is part of the query, so a team the caller
 * is not in simply yields nothing.
 */
function scopeCondition(userId: string, scope: PromptScope, teamId: string | undefined): SQL {
  if (scope === 'owner') return eq(prompts.ownerUserId, userId)
  return and(
    eq(prompts.visibility, 'team'),
    inArray(prompts.teamId, teamsOf(userId)),
    teamId ? eq(prompts.teamId, teamId) : undefined,
  )!
}

/**
 * One page of prompts, newest change first (updated_at desc, id desc). Tags must all be present
 * (GIN index). A search matches titles, descriptions and every version's body and orders by its
 * rank first (search.ts, decision 0175); each item then says where it matched.
 */
export async function listPrompts(
  db: Db,
  actor: Actor,
  query: z.output<typeof listPromptsQuery>,
): Promise<PromptPage> {
  const filters = [
    scopeCondition(actor.id, query.scope, query.teamId),
    query.tags.length > 0 ? hasAllTags(prompts.tags, query.tags) : undefined,
    query.visibility ? eq(prompts.visibility, query.visibility) : undefined,
  ]
  if (query.search) return searchPrompts(db, actor, query, query.search, filters)
  const order = [desc(prompts.updatedAt), desc(prompts.id)]
  // First the page's ids (filters, order and limit on prompts alone, served by the indexes), then
  // the summaries of just those rows: otherwise the joins and counts would run for every match.
  // The inner `prompts` shadows the outer one, so its conditions refer to the inner rows.
  const pageOf = (scope: SQL, columns: { id: typeof prompts.id; updatedAt?: typeof prompts.updatedAt }) =>
    db
      .select(columns)
      .from(prompts)
      .where(
        and(
          scope,
          ...filters.slice(1),
          pageCondition({ column: prompts.updatedAt, kind: 'timestamp' }, prompts.id, query.cursor),
        ),
      )
      .orderBy(...order)
      .limit(query.limit + 1)
  // A team page is the newest of each team's newest: one short walk of the team index per team of
  // the caller, so it costs the same with 100 or 100,000 team prompts (decision 0205). One query
  // over all the teams at once would read and sort every team prompt for each page.
  const pageIds =
    query.scope === 'team'
      ? sql`(SELECT page.id FROM team_members m
          CROSS JOIN LATERAL (${pageOf(and(eq(prompts.visibility, 'team'), sql`${prompts.teamId} = m.team_id`)!, { id: prompts.id, updatedAt: prompts.updatedAt })}) page
          WHERE m.user_id = ${actor.id}${query.teamId ? sql` AND m.team_id = ${query.teamId}` : sql``}
          ORDER BY page.updated_at DESC, page.id DESC LIMIT ${query.limit + 1})`
      : pageOf(filters[0]!, { id: prompts.id })
  const rows = await selectSummaries(db, actor.id)
    .where(inArray(prompts.id, pageIds))
    .orderBy(...order)
  return toPage(
    rows,
    query.limit,
    (row) => row.cursorAt,
    (row) => toSummary(actor, row),
  )
}

/** The searched list: ranked, keyset-paged on (rank, updated_at, id), each item with its match. */
async function searchPrompts(
  db: Db,
  actor: Actor,
  query: z.output<typeof listPromptsQuery>,
  search: string,
  filters: (SQL | undefined)[],
): Promise<PromptPage> {
  const parts = searchParts(search, query.cursor, and(...filters))
  const ranked = await db
    .select({ id: prompts.id, rank: parts.rank.as('rank'), cursorKey: parts.cursorKey })
    .from(prompts)
    .where(and(...filters, parts.matches, parts.after))
    .orderBy(...parts.order)
    .limit(query.limit + 1)
  if (ranked.length === 0) return { items: [], nextCursor: null }
  const summaries = await selectSummaries(db, actor.id).where(
    inArray(
      prompts.id,
      ranked.map((row) => row.id),
    ),
  )
  const byId = new Map(summaries.map((row) => [row.id, row]))
  const pageRows = ranked.slice(0, query.limit).flatMap((row) => {
    const summary = byId.get(row.id)
    return summary ? [{ ...summary, cursorKey: row.cursorKey }] : []
  })
  const matches = await matchesOf(db, pageRows, search)
  const page = toPage(
    ranked.length > query.limit ? [...pageRows, ranked[query.limit]!] : pageRows,
    query.limit,
    (row) => row.cursorKey,
    (row) => row,
  )
  return {
    items: page.items.map((row) => {
      const { cursorKey: _, ...summary } = row as (typeof pageRows)[number]
      return { ...toSummary(actor, summary), match: matches.get(row.id) }
    }),
    nextCursor: page.nextCursor,
  }
}

/** The distinct tags of a scope's prompts, alphabetically, for the tag filter. */
export async function listPromptTags(
  db: Db,
  actor: Actor,
  query: z.output<typeof promptTagsQuery>,
): Promise<string[]> {
  const tag = sql<string>`unnest(${prompts.tags})`.as('tag')
  const rows = await db
    .selectDistinct({ tag })
    .from(prompts)
    .where(scopeCondition(actor.id, query.scope, query.teamId))
    .orderBy(sql`tag`)
    .limit(500)
  return rows.map((row) => row.tag)
}
