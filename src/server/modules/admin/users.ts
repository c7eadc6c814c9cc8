import { type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { AdminUser, AdminUsersPage, adminUsersQuery, setGlobalRoleInput } from '../../../domain/admin.ts'
import type { Actor, GlobalRole } from '../../../domain/auth.ts'
import { decodeCursor, encodeCursor } from '../../../domain/cursor.ts'
import { AppError } from '../../../domain/errors.ts'
import { type ChoosablePlanId, planStandingOf } from '../../../domain/plans.ts'
import { recordAudit } from '../../core/audit.ts'
import { type PlanGate, subjectKeySql } from '../../core/plan-gate.ts'
import type { Db, Tx } from '../../db/client.ts'
import { type NewestFirstList, newestFirstRows } from '../../db/newest-first.ts'
import { containsPattern, cursorTimestamp, isoTimestampText, startsWith } from '../../db/queries.ts'
import { queryRows } from '../../db/rows.ts'

interface UserRow extends Record<string, unknown> {
  id: string
  email: string
  name: string
  role: GlobalRole
  /** As the API writes it (`isoTimestampText`). */
  created_at: string
  cursor_at: string
  is_first: boolean
  teams: Array<{ id: string; name: string; role: 'admin' | 'member' }> | string | null
  plan: ChoosablePlanId | null
}

/**
 * The columns of an admin user item: teams aggregated, the personal plan, the first-user flag.
 * `from` is the table, or a subquery of its rows with the columns read here.
 */
function selectUsers(where: SQL, limit: number | null, from: SQL = sql`users`): SQL {
  return sql`SELECT u.id, u.email, u.name, u.role, ${isoTimestampText(sql`u.created_at`)} AS created_at, ${cursorTimestamp(sql`u.created_at`)} AS cursor_at,
      coalesce(u.id = (SELECT first_user_id FROM installation WHERE id = 1), false) AS is_first,
      (SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'role', m.role) ORDER BY t.name, t.id)
         FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = u.id) AS teams,
      (SELECT plan FROM plan_subjects WHERE subject_key = ${subjectKeySql('personal', sql`u.id`)}) AS plan
    FROM ${from} u
    WHERE ${where}
    ORDER BY u.created_at DESC, u.id DESC
    ${limit === null ? sql`` : sql`LIMIT ${limit}`}`
}

/** An account as the admin's list shows it; `now` is the request's (one for every row). */
function toAdminUser(row: UserRow, plans: PlanGate, now: Date): AdminUser {
  const teams = typeof row.teams === 'string' ? JSON.parse(row.teams) : (row.teams ?? [])
  const plan = planStandingOf({
    context: 'personal',
    createdAt: new Date(row.created_at),
    chosenPlan: row.plan,
    usage: { prompts: 0, teamMembers: 0 },
    now,
    enabled: plans.enabled,
  })
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    globalRole: row.role === 'global_admin' ? 'global_admin' : 'user',
    isFirstUser: row.is_first,
    teams,
    createdAt: row.created_at,
    plan,
  }
}

/** The shortest search the trigram index serves. */
const SHORTEST_TRIGRAM_SEARCH = 3

/**
 * A "contains" match on the address, case-insensitive as ILIKE is, at LIKE's cost. Addresses are
 * stored in lower case (`CHECK (email = lower(email))`), and ILIKE matches lower(address) against
 * lower(pattern): lowering the pattern once gives the same rows without lowering every address,
 * which was most of the time a search spent per account it read. The trigram index serves it.
 */
const emailContains = (search: string): SQL => sql`u.email LIKE lower(${containsPattern(search)})`

/**
 * A trigram index finds nothing shorter than three characters, so a search of one or two matches
 * the start of the address instead (decision 0256): "contains" for two letters would read every
 * account.
 */
const emailStartsWith = (search: string): SQL => startsWith(sql`u.email`, search)

/** The user list's statements (decision 0234): the page's columns over the table or a window of it. */
const userList: NewestFirstList = {
  select: (where, limit, from) => selectUsers(where, limit, from),
  newest: (
    listed,
    rows,
  ) => sql`(SELECT u.id, u.email, u.name, u.role, u.created_at FROM users u WHERE ${listed}
    ORDER BY u.created_at DESC, u.id DESC LIMIT ${rows})`,
}

/**
 * A short search's statements: the newest accounts first, as for any search; when they do not
 * hold a page, every match's creation time and id are read from `users_email_prefix_idx` alone
 * (materialized, so that the planner cannot walk the accounts newest first hoping to meet the
 * matches early: a prefix held by old accounts only read all of them) and only the page's rows
 * from the table.
 */
const shortSearchList: NewestFirstList = {
  select: (where, limit, from) =>
    from
      ? selectUsers(where, limit, from)
      : selectUsers(
          sql`true`,
          limit,
          sql`(SELECT u.* FROM users u JOIN (
            WITH matches AS MATERIALIZED (SELECT u.id, u.created_at FROM users u WHERE ${where})
            SELECT id FROM matches ORDER BY created_at DESC, id DESC LIMIT ${limit}
          ) page USING (id))`,
        ),
  newest: userList.newest,
}

/**
 * The user list: newest first, keyset pages on (created_at, id) so page 2000 of 100k accounts
 * costs what page 1 does; `search` matches the email (`emailMatches`, `newestFirstRows`).
 */
export async function listUsers(
  db: Db,
  plans: PlanGate,
  query: z.output<typeof adminUsersQuery>,
): Promise<AdminUsersPage> {
  // Deleted accounts' tombstones (decision 0180) are no one to manage.
  const conditions: SQL[] = [sql`u.deleted_at IS NULL`]
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor)
    conditions.push(sql`(u.created_at, u.id) < (${cursor.at}::timestamptz, ${cursor.id})`)
  }
  const short = query.search !== undefined && query.search.length < SHORTEST_TRIGRAM_SEARCH
  // Side by side: the counts do not depend on the page, and each round trip to the database is
  // one more wait for a busy machine's scheduler.
  const [rows, [counts]] = await Promise.all([
    newestFirstRows<UserRow>(
      db,
      short ? shortSearchList : userList,
      sql.join(conditions, sql` AND `),
      query.search ? (short ? emailStartsWith : emailContains)(query.search) : undefined,
      query.limit + 1,
    ),
    queryRows<{ users: number | string; admins: number | string }>(
      db,
      // Kept by triggers (migration 0205): counting the accounts would cost a scan of all of them.
      sql`SELECT users, admins FROM user_counts WHERE id = 1`,
    ),
  ])
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  const now = plans.now()
  return {
    items: page.map((row) => toAdminUser(row, plans, now)),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
    counts: { users: Number(counts?.users ?? 0), globalAdmins: Number(counts?.admins ?? 0) },
  }
}

async function readUser(db: Db | Tx, plans: PlanGate, userId: string): Promise<AdminUser> {
  const [row] = await queryRows<UserRow>(db, selectUsers(sql`u.id = ${userId}`, 1))
  if (!row) throw new AppError('not_found', 'admin.userNotFound')
  return toAdminUser(row, plans, plans.now())
}

/**
 * Grants or revokes the global role (`users.role`, the one source of truth; the session reads it
 * on every request, so the change holds from the user's next request on). Every change of the
 * role takes one lock first, so two admins demoting each other at the same moment take turns: the
 * second sees one admin left and is refused. Also refused: demoting the last global admin, demoting
 * yourself without `confirmSelf`, and demoting the ADMIN_EMAIL account (it would be promoted again
 * at its next sign-in). Each change is recorded in the audit log in the same transaction.
 */
export async function setGlobalRole(
  deps: { db: Db; plans: PlanGate; adminEmail: string | undefined },
  actor: Actor,
  userId: string,
  input: z.output<typeof setGlobalRoleInput>,
): Promise<AdminUser> {
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('promptfolio.global-role'))`)
    const people = await queryRows<{ id: string; email: string; role: string }>(
      tx,
      sql`SELECT id, email, role FROM users WHERE id IN (${userId}, ${actor.id}) FOR UPDATE`,
    )
    const target = people.find((person) => person.id === userId)
    if (!target) throw new AppError('not_found', 'admin.userNotFound')
    // The caller may have been demoted by another admin since the request began.
    if (people.find((person) => person.id === actor.id)?.role !== 'global_admin') {
      throw new AppError('forbidden', 'error.globalAdminRequired')
    }
    if (target.role === input.role) return readUser(tx, deps.plans, userId)
    if (input.role === 'user') {
      if (target.id === actor.id && !input.confirmSelf) {
        throw new AppError('validation', 'admin.confirmSelf', {
          fields: { confirmSelf: 'admin.confirmSelf' },
        })
      }
      const [admins] = await queryRows<{ count: number | string }>(
        tx,
        sql`SELECT count(*) AS count FROM users WHERE role = 'global_admin'`,
      )
      if (Number(admins?.count ?? 0) <= 1) throw new AppError('conflict', 'admin.lastAdmin')
      if (deps.adminEmail && target.email === deps.adminEmail) {
        throw new AppError('conflict', 'admin.adminEmailRole')
      }
    }
    await tx.execute(sql`UPDATE users SET role = ${input.role}, updated_at = now() WHERE id = ${userId}`)
    // In the same transaction: the entry commits with the change or not at all.
    await recordAudit(tx, actor, {
      action: input.role === 'global_admin' ? 'global_role.granted' : 'global_role.revoked',
      objectType: 'user',
      objectId: userId,
      before: { email: target.email, role: target.role },
      after: { email: target.email, role: input.role },
    })
    return readUser(tx, deps.plans, userId)
  })
}
