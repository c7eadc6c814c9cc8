import { and, desc, eq, gt } from 'drizzle-orm'
import { Hono } from 'hono'
import type { SessionSummary } from '../../../domain/auth.ts'
import type { Db } from '../../db/client.ts'
import { sessions } from '../../db/schema/index.ts'
import type { AppEnv, UserEnv } from '../../http/env.ts'
import { isPastAbsoluteLifetime, requireUser } from '../../http/session.ts'

/** `/me` for API clients (401 when signed out). */
export function meRoutes() {
  return new Hono<UserEnv>().use(requireUser).get('/', (c) => c.json({ user: c.get('user') }))
}

/** `/session`: who is signed in, or `{ user: null }` — the web app asks this on every load. */
export function sessionRoutes() {
  return new Hono<AppEnv>().get('/', (c) => c.json({ user: c.get('user') }))
}

/**
 * `/sessions`: the signed-in user's live sessions, newest first. In place of better-auth's
 * list-sessions, whose answer carries every session's token to any script in the page.
 */
export function sessionListRoutes(deps: { db: Db }) {
  return new Hono<UserEnv>().use(requireUser).get('/', async (c) => {
    const rows = await deps.db
      .select({
        id: sessions.id,
        createdAt: sessions.createdAt,
        expiresAt: sessions.expiresAt,
        ipAddress: sessions.ipAddress,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, c.get('user').id), gt(sessions.expiresAt, new Date())))
      .orderBy(desc(sessions.createdAt))
    const items: SessionSummary[] = rows
      .filter((row) => !isPastAbsoluteLifetime(row))
      .map((row) => ({
        ...row,
        createdAt: row.createdAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
        current: row.id === c.get('sessionId'),
      }))
    return c.json({ items })
  })
}
