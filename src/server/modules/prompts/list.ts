import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import type { listPromptsQuery, PromptPage, PromptScope, promptTagsQuery } from '../../../domain/prompts.ts'
import type { Db } from '../../db/client.ts'
import { containsText, hasAllTags, pageCondition, teamsOf, toPage } from '../../db/queries.ts'
import { prompts } from '../../db/schema/index.ts'
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
 * One page of prompts, newest change first (updated_at desc, id desc). Search is a
 * case-insensitive title match (trigram index), tags must all be present (GIN index).
 */
export async function listPrompts(
  db: Db,
  actor: Actor,
  query: z.output<typeof listPromptsQuery>,
): Promise<PromptPage> {
  const order = [desc(prompts.updatedAt), desc(prompts.id)]
  // First the page's ids (filters, order and limit on prompts alone, served by the indexes), then
  // the summaries of just those rows: otherwise the joins and counts would run for every match.
  // The inner `prompts` shadows the outer one, so its conditions refer to the inner rows.
  const pageIds = db
    .select({ id: prompts.id })
    .from(prompts)
    .where(
      and(
        scopeCondition(actor.id, query.scope, query.teamId),
        query.search ? containsText(prompts.title, query.search) : undefined,
        query.tags.length > 0 ? hasAllTags(prompts.tags, query.tags) : undefined,
        query.visibility ? eq(prompts.visibility, query.visibility) : undefined,
        pageCondition({ column: prompts.updatedAt, kind: 'timestamp' }, prompts.id, query.cursor),
      ),
    )
    .orderBy(...order)
    .limit(query.limit + 1)
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
