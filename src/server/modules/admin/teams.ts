import { type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import {
  ADMIN_TEAM_ADMINS_SHOWN,
  type AdminTeam,
  type AdminTeamsPage,
  type adminTeamsQuery,
} from '../../../domain/admin.ts'
import { decodeCursor, encodeCursor } from '../../../domain/cursor.ts'
import { type ChoosablePlanId, entitlementsOf } from '../../../domain/plans.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import type { Db } from '../../db/client.ts'
import { type NewestFirstList, newestFirstRows } from '../../db/newest-first.ts'
import { containsPattern, cursorTimestamp } from '../../db/queries.ts'
import { isoTimestamp, queryRows, type SqlTimestamp } from '../../db/rows.ts'

interface TeamRow extends Record<string, unknown> {
  id: string
  name: string
  created_at: SqlTimestamp
  cursor_at: string
  members: number | string
  admin_count: number | string
  admins: AdminTeam['admins'] | string | null
  prompts: number | string
  conversations: number | string
  plan: ChoosablePlanId | null
}

/**
 * A page of teams: the rows are chosen first (newest first, at most `limit`, from the table or a
 * window of it), and only those rows are counted, each from an index that holds its team's
 * entries together: members by the primary key (team_id, user_id), admins by
 * team_members_admins_idx, shared prompts by prompts_team_created_idx, conversations by
 * conversations_team_created_idx (migrations 0130 and 0246).
 */
function selectTeams(where: SQL, limit: number, from: SQL = sql`teams`): SQL {
  return sql`SELECT t.id, t.name, t.created_at, ${cursorTimestamp(sql`t.created_at`)} AS cursor_at,
      (SELECT count(*) FROM team_members m WHERE m.team_id = t.id) AS members,
      (SELECT count(*) FROM team_members m WHERE m.team_id = t.id AND m.role = 'admin') AS admin_count,
      (SELECT json_agg(json_build_object('id', u.id, 'email', u.email, 'name', u.name) ORDER BY a.created_at, a.user_id)
         FROM (SELECT m.user_id, m.created_at FROM team_members m WHERE m.team_id = t.id AND m.role = 'admin'
               ORDER BY m.created_at, m.user_id LIMIT ${ADMIN_TEAM_ADMINS_SHOWN}) a
         JOIN users u ON u.id = a.user_id) AS admins,
      (SELECT count(*) FROM prompts p WHERE p.team_id = t.id AND p.visibility = 'team') AS prompts,
      (SELECT count(*) FROM conversations c WHERE c.team_id = t.id) AS conversations,
      (SELECT s.plan FROM plan_subjects s WHERE s.team_id = t.id) AS plan
    FROM (SELECT t.id, t.name, t.created_at FROM ${from} t WHERE ${where}
          ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}) t
    ORDER BY t.created_at DESC, t.id DESC`
}

const teamList: NewestFirstList = {
  select: selectTeams,
  newest: (listed, rows) => sql`(SELECT t.id, t.name, t.created_at FROM teams t WHERE ${listed}
    ORDER BY t.created_at DESC, t.id DESC LIMIT ${rows})`,
}

/** Any part of the name, case-insensitive; the trigram index on lower(name) serves it. */
function nameContains(search: string): SQL {
  return sql`lower(t.name) LIKE lower(${containsPattern(search)})`
}

function toAdminTeam(row: TeamRow, plans: PlanGate): AdminTeam {
  const admins = typeof row.admins === 'string' ? JSON.parse(row.admins) : (row.admins ?? [])
  const memberCount = Number(row.members)
  const promptCount = Number(row.prompts)
  const entitlements = entitlementsOf({
    context: 'team',
    teamId: row.id,
    createdAt: new Date(row.created_at),
    chosenPlan: row.plan,
    usage: { prompts: promptCount, teamMembers: memberCount },
    now: plans.now(),
    enabled: plans.enabled,
  })
  return {
    id: row.id,
    name: row.name,
    createdAt: isoTimestamp(row.created_at),
    memberCount,
    adminCount: Number(row.admin_count),
    admins,
    promptCount,
    conversationCount: Number(row.conversations),
    plan: { state: entitlements.state, plan: entitlements.plan },
  }
}

/**
 * Every team for the global admin: newest first, keyset pages on (created_at, id) so that page
 * 20,000 of 1M teams costs what page 1 does; `search` matches any part of the name, answered like
 * the user search (decision 0234). The total comes from team_counts (migration 0246).
 */
export async function listTeams(
  db: Db,
  plans: PlanGate,
  query: z.output<typeof adminTeamsQuery>,
): Promise<AdminTeamsPage> {
  const conditions: SQL[] = [sql`true`]
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor)
    conditions.push(sql`(t.created_at, t.id) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`)
  }
  const rows = await newestFirstRows<TeamRow>(
    db,
    teamList,
    sql.join(conditions, sql` AND `),
    query.search ? nameContains(query.search) : undefined,
    query.limit + 1,
  )
  const [counts] = await queryRows<{ teams: number | string }>(
    db,
    sql`SELECT teams FROM team_counts WHERE id = 1`,
  )
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  return {
    items: page.map((row) => toAdminTeam(row, plans)),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
    counts: { teams: Number(counts?.teams ?? 0) },
  }
}
