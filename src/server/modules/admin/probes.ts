import { sql } from 'drizzle-orm'
import type { AdminProbes, CodeSignInProbe } from '../../../domain/admin.ts'
import type { Actor } from '../../../domain/auth.ts'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'

async function timed<T>(
  run: () => Promise<T>,
): Promise<{ ok: true; latencyMs: number; value: T } | { ok: false; latencyMs: null; error: string }> {
  const start = performance.now()
  try {
    const value = await run()
    return { ok: true, latencyMs: Math.round((performance.now() - start) * 100) / 100, value }
  } catch (error) {
    return { ok: false, latencyMs: null, error: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * The diagnostics pages' probes: a count query on conversations, and the members lookup of a team
 * (the one named, else the caller's first), each timed. A probe that fails says why; it never
 * fails the request.
 */
export async function runProbes(db: Db, actor: Actor, teamId: string | undefined): Promise<AdminProbes> {
  const count = await timed(async () => {
    const [row] = await queryRows<{ count: number | string }>(
      db,
      sql`SELECT count(*) AS count FROM conversations`,
    )
    return Number(row?.count ?? 0)
  })
  const [team] = await queryRows<{ id: string; name: string }>(
    db,
    teamId
      ? sql`SELECT id, name FROM teams WHERE id = ${teamId}`
      : sql`SELECT t.id, t.name FROM teams t JOIN team_members m ON m.team_id = t.id
            WHERE m.user_id = ${actor.id} ORDER BY m.created_at, t.id LIMIT 1`,
  )
  const members = team
    ? await timed(() =>
        queryRows<{ userId: string; email: string; role: 'admin' | 'member' }>(
          db,
          sql`SELECT m.user_id AS "userId", u.email, m.role FROM team_members m JOIN users u ON u.id = m.user_id
              WHERE m.team_id = ${team.id} ORDER BY m.created_at, m.user_id LIMIT 100`,
        ),
      )
    : null
  return {
    checkedAt: new Date().toISOString(),
    conversationCount: count.ok
      ? { ok: true, latencyMs: count.latencyMs, count: count.value }
      : { ok: false, latencyMs: null, error: count.error, count: null },
    teamMembers: {
      teamId: team?.id ?? null,
      teamName: team?.name ?? null,
      ...(members === null
        ? {
            ok: false,
            latencyMs: null,
            error: teamId ? 'team_not_found' : 'no_team',
            members: [],
          }
        : members.ok
          ? { ok: true, latencyMs: members.latencyMs, members: members.value }
          : { ok: false, latencyMs: null, error: members.error, members: [] }),
    },
  }
}

/** The one-time-code sign-in test: a code for the caller's own address, sent the way sign-in sends it. */
export async function probeCodeSignIn(
  actor: Actor,
  send: (email: string) => Promise<unknown>,
): Promise<CodeSignInProbe> {
  const result = await timed(() => send(actor.email))
  return result.ok
    ? { ok: true, latencyMs: result.latencyMs, email: actor.email }
    : { ok: false, latencyMs: null, error: result.error, email: actor.email }
}
