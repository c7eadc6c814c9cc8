import { and, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { decodeCursor, encodeCursor } from '../../../domain/cursor.ts'
import type { listPromptsQuery, PromptPage, PromptScope, promptTagsQuery } from '../../../domain/prompts.ts'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'
import { prompts } from '../../db/schema/index.ts'
import { selectSummaries, toSummary } from './summaries.ts'

/**
 * Which prompts a scope covers (§7): 'owner' the caller's own, 'team' the team-visible prompts of
 * the caller's teams (or of one of them). Membership is part of the query, so a team the caller
 * is not in simply yields nothing.
 */
function scopeCondition(userId: string, scope: PromptScope, teamId: string | undefined): SQL {
  if (scope === 'owner') return eq(prompts.ownerUserId, userId)
  return and(
    eq(prompts.visibility, 'team'),
    sql`${prompts.teamId} IN (SELECT team_id FROM team_members WHERE user_id = ${userId})`,
    teamId ? eq(prompts.teamId, teamId) : undefined,
  )!
}

/** `%` and `_` in the user's search are literal characters, not wildcards. */
function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`
}

/**
 * One page of prompts, newest change first (updated_at desc, id desc). Search is a
 * case-insensitive title match (trigram index), tags must all be present (GIN index).
 */
export async function listPrompts(
  db: Db,
  userId: string,
  query: z.output<typeof listPromptsQuery>,
): Promise<PromptPage> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined
  const order = [desc(prompts.updatedAt), desc(prompts.id)]
  // First the page's ids (filters, order and limit on prompts alone, served by the indexes), then
  // the summaries of just those rows: otherwise the joins and counts would run for every match.
  // The inner `prompts` shadows the outer one, so its conditions refer to the inner rows.
  const pageIds = db
    .select({ id: prompts.id })
    .from(prompts)
    .where(
      and(
        scopeCondition(userId, query.scope, query.teamId),
        query.search ? ilike(prompts.title, likeContaining(query.search)) : undefined,
        query.tags.length > 0
          ? sql`${prompts.tags} @> ARRAY[${sql.join(
              query.tags.map((tag) => sql`${tag}`),
              sql`, `,
            )}]::text[]`
          : undefined,
        query.visibility ? eq(prompts.visibility, query.visibility) : undefined,
        cursor
          ? sql`(${prompts.updatedAt}, ${prompts.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(...order)
    .limit(query.limit + 1)
  const rows = await selectSummaries(db, userId)
    .where(inArray(prompts.id, pageIds))
    .orderBy(...order)
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  return {
    items: page.map(toSummary),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.cursorAt, id: last.id }) : null,
  }
}

/** The distinct tags of a scope's prompts, alphabetically, for the tag filter. */
export async function listPromptTags(
  db: Db,
  userId: string,
  query: z.output<typeof promptTagsQuery>,
): Promise<string[]> {
  const rows = await queryRows<{ tag: string }>(
    db,
    sql`SELECT DISTINCT unnest(${prompts.tags}) AS tag FROM ${prompts}
        WHERE ${scopeCondition(userId, query.scope, query.teamId)}
        ORDER BY tag
        LIMIT 500`,
  )
  return rows.map((row) => row.tag)
}
