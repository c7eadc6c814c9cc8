import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import { decodeCursor } from '../../../domain/cursor.ts'
import type { listPromptsQuery, PromptPage, PromptScope, promptTagsQuery } from '../../../domain/prompts.ts'
import type { Db, Tx } from '../../db/client.ts'
import { builtOnce } from '../../db/prepared.ts'
import { afterCursor, hasAllTags, type Param, teamsOf, toPage } from '../../db/queries.ts'
import { prompts } from '../../db/schema/index.ts'
import { promptOwnedBy, teamReachOf } from './access.ts'
import {
  bodyMatchesOf,
  fieldHitsOf,
  fieldMatchOf,
  rankedSearchValues,
  type SearchShape,
  searchParts,
} from './search.ts'
import { selectSummaries, toSummary } from './summaries.ts'

/**
 * Which prompts a scope covers: 'owner' the caller's own that they still see (not the team prompts
 * of a team they left), 'team' the team-visible prompts of the caller's teams (or of one of them).
 * Membership is part of the query, so a team the caller is not in, or does not reach (`member`:
 * null for a personal key), simply yields nothing.
 */
function scopeCondition(
  userId: Param<string>,
  member: Param<string | null>,
  scope: PromptScope,
  teamId: Param<string> | undefined,
): SQL {
  if (scope === 'owner') return promptOwnedBy(userId, member)
  return and(
    eq(prompts.visibility, 'team'),
    inArray(prompts.teamId, teamsOf(member as Param<string>)),
    teamId ? eq(prompts.teamId, teamId) : undefined,
  )!
}

type ListQuery = z.output<typeof listPromptsQuery>

/** The list's filters, with values or with placeholders (`listStatement`). */
function listFilters(
  viewer: Param<string>,
  member: Param<string | null>,
  scope: PromptScope,
  params: {
    teamId?: Param<string>
    tags?: Param<readonly string[]>
    visibility?: Param<'private' | 'team'>
    folder?: Param<string>
  },
): (SQL | undefined)[] {
  return [
    scopeCondition(viewer, member, scope, params.teamId),
    params.tags ? hasAllTags(prompts.tags, params.tags) : undefined,
    params.visibility ? eq(prompts.visibility, params.visibility) : undefined,
    // A filter on the rows the space's index walk yields; the walk and its order stay the same.
    params.folder ? sql`starts_with(${prompts.name}, ${params.folder}::text || '/')` : undefined,
  ]
}

/**
 * One page of prompts, newest change first (updated_at desc, id desc). Tags must all be present
 * (GIN index). A search matches titles, descriptions and every version's body and orders by its
 * rank first (search.ts, decision 0175); each item then says where it matched.
 */
export async function listPrompts(db: Db, actor: Actor, query: ListQuery): Promise<PromptPage> {
  const tags = query.tags.length > 0 ? query.tags : undefined
  const filterShape = {
    scope: query.scope,
    team: query.teamId !== undefined,
    tags: tags !== undefined,
    visibility: query.visibility !== undefined,
    folder: query.folder !== undefined,
  }
  const filterValues = {
    viewer: actor.id,
    member: teamReachOf(actor),
    teamId: query.teamId,
    tags,
    visibility: query.visibility,
    folder: query.folder,
  }
  if (query.search) return searchPrompts(db, actor, query, query.search, filterShape, filterValues)
  const cursor = query.cursor ? decodeCursor(query.cursor, 'timestamp') : undefined
  const rows = await listStatement(db, { ...filterShape, cursor: cursor !== undefined }).execute({
    ...filterValues,
    cursorAt: cursor?.at,
    cursorId: cursor?.id,
    limit: query.limit + 1,
  })
  return toPage(
    rows,
    query.limit,
    (row) => row.cursorAt,
    (row) => toSummary(actor, row),
  )
}

/** Which filters a list request has: each combination is one statement, built once. */
interface FilterShape {
  scope: PromptScope
  team: boolean
  tags: boolean
  visibility: boolean
  folder: boolean
}

/** Which optional parts a list request has. */
interface ListShape extends FilterShape {
  cursor: boolean
}

const filterKey = (shape: FilterShape) =>
  `${shape.scope}:${+shape.team}${+shape.tags}${+shape.visibility}${+shape.folder}`

/** The filters of a shape, with placeholders viewer, member, teamId, tags, visibility and folder. */
function filterPlaceholders(shape: FilterShape): (SQL | undefined)[] {
  const ph = sql.placeholder
  return listFilters(ph('viewer'), ph('member'), shape.scope, {
    teamId: shape.team ? ph('teamId') : undefined,
    tags: shape.tags ? ph('tags') : undefined,
    visibility: shape.visibility ? ph('visibility') : undefined,
    folder: shape.folder ? ph('folder') : undefined,
  })
}

/**
 * A page without a tag or folder filter walks one index range of the caller's (or each team's)
 * prompts whatever the values are, so its statement is named: each connection plans it once and
 * PostgreSQL then keeps a generic plan. Planned anew, as unnamed statements are, planning cost
 * 1.0–1.6 ms of PostgreSQL's CPU per page against 0.7–1.0 ms to run it (decision 0278). A tag
 * filter's best plan depends on how common the tags are, so those shapes stay unnamed.
 */
function planKeptName(shape: ListShape): string {
  return shape.tags || shape.folder ? '' : `promptfolio_prompt_list_${filterKey(shape)}${+shape.cursor}`
}

/** The list's select for one shape, with placeholders for the values, built once (`builtOnce`). */
const listStatement = builtOnce(
  (db: Db | Tx, shape: ListShape) => {
    const ph = sql.placeholder
    const viewer = ph('viewer')
    const filters = filterPlaceholders(shape)
    const after = shape.cursor
      ? afterCursor({ column: prompts.updatedAt, kind: 'timestamp' }, prompts.id, {
          at: ph('cursorAt'),
          id: ph('cursorId'),
        })
      : undefined
    const order = [desc(prompts.updatedAt), desc(prompts.id)]
    // First the page's ids (filters, order and limit on prompts alone, served by the indexes), then
    // the summaries of just those rows: otherwise the joins and counts would run for every match.
    // The inner `prompts` shadows the outer one, so its conditions refer to the inner rows.
    const pageOf = (scope: SQL, columns: { id: typeof prompts.id; updatedAt?: typeof prompts.updatedAt }) =>
      db
        .select(columns)
        .from(prompts)
        .where(and(scope, ...filters.slice(1), after))
        .orderBy(...order)
        .limit(ph('limit'))
    // A team page is the newest of each team's newest: one short walk of the team index per team of
    // the caller, so it costs the same with 100 or 100,000 team prompts (decision 0205). One query
    // over all the teams at once would read and sort every team prompt for each page.
    const pageIds =
      shape.scope === 'team'
        ? sql`(SELECT page.id FROM team_members m
          CROSS JOIN LATERAL (${pageOf(and(eq(prompts.visibility, 'team'), sql`${prompts.teamId} = m.team_id`)!, { id: prompts.id, updatedAt: prompts.updatedAt })}) page
          WHERE m.user_id = ${ph('member')}${shape.team ? sql` AND m.team_id = ${ph('teamId')}` : sql``}
          ORDER BY page.updated_at DESC, page.id DESC LIMIT ${ph('limit')})`
        : pageOf(filters[0]!, { id: prompts.id })
    return selectSummaries(db, viewer)
      .where(inArray(prompts.id, pageIds))
      .orderBy(...order)
      .prepare(planKeptName(shape))
  },
  (shape) => `${filterKey(shape)}${+shape.cursor}`,
)

/** The ranked ids of a searched page for one shape (search.ts), built once (`builtOnce`). */
const rankedStatement = builtOnce(
  (db: Db | Tx, shape: FilterShape & SearchShape) => {
    const filters = filterPlaceholders(shape)
    const parts = searchParts(shape, and(...filters))
    return db
      .select({ id: prompts.id, rank: parts.rank.as('rank'), cursorKey: parts.cursorKey })
      .from(prompts)
      .where(and(...filters, parts.matches, parts.after))
      .orderBy(...parts.order)
      .limit(sql.placeholder('limit'))
      .prepare('')
  },
  (shape) => `${filterKey(shape)}${+shape.hasWord}${+shape.cursor}${+shape.olderVersions}`,
)

/** The summaries of a searched page's prompts, in one array parameter (`builtOnce`). */
const summariesByIdStatement = builtOnce((db) =>
  selectSummaries(db, sql.placeholder('viewer'))
    .where(sql`${prompts.id} = ANY(${sql.placeholder('ids')}::uuid[])`)
    .prepare(''),
)

/** The searched list: ranked, keyset-paged on (rank, updated_at, id), each item with its match. */
async function searchPrompts(
  db: Db,
  actor: Actor,
  query: ListQuery,
  search: string,
  filterShape: FilterShape,
  filterValues: Record<string, unknown>,
): Promise<PromptPage> {
  const { shape, values } = rankedSearchValues(search, query.cursor, query.versions === 'all')
  const ranked = await rankedStatement(db, { ...filterShape, ...shape }).execute({
    ...filterValues,
    ...values,
    limit: query.limit + 1,
  })
  if (ranked.length === 0) return { items: [], nextCursor: null }
  const page = toPage(
    ranked,
    query.limit,
    (row) => row.cursorKey,
    (row) => row,
  )
  // Which prompts matched only in a body is known from the ranks, so their versions are read
  // beside the summaries rather than after them.
  const bodyOnly = page.items.filter((row) => {
    const hit = fieldHitsOf(row.rank)
    return !hit.title && !hit.description
  })
  const [summaries, bodyMatches] = await Promise.all([
    summariesByIdStatement(db, undefined).execute({ viewer: actor.id, ids: page.items.map((row) => row.id) }),
    bodyMatchesOf(
      db,
      bodyOnly.map((row) => row.id),
      search,
    ),
  ])
  const byId = new Map(summaries.map((row) => [row.id, row]))
  return {
    // A prompt deleted since it was ranked has no summary and drops out of the page.
    items: page.items.flatMap(({ id, rank }) => {
      const summary = byId.get(id)
      if (!summary) return []
      const match = fieldMatchOf({ ...summary, rank }, search) ?? bodyMatches.get(id)
      return [{ ...toSummary(actor, summary), match }]
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
    .where(scopeCondition(actor.id, teamReachOf(actor), query.scope, query.teamId))
    .orderBy(sql`tag`)
    .limit(500)
  return rows.map((row) => row.tag)
}
