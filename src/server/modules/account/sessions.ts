import { and, desc, eq, gt } from 'drizzle-orm'
import type { SessionSummary } from '../../../domain/auth.ts'
import { isPastAbsoluteLifetime } from '../../auth/session.ts'
import type { Db } from '../../db/client.ts'
import { sessions } from '../../db/schema/index.ts'

/**
 * The user's live sessions, newest first, `currentId` marked. In place of better-auth's
 * list-sessions, whose answer carries every session's token to any script in the page.
 */
export async function listSessions(
  db: Db,
  userId: string,
  currentId: string | null,
): Promise<SessionSummary[]> {
  const rows = await db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      ipAddress: sessions.ipAddress,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.createdAt))
  return rows
    .filter((row) => !isPastAbsoluteLifetime(row))
    .map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      current: row.id === currentId,
    }))
}
