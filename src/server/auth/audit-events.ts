import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import { eq } from 'drizzle-orm'
import { recordAudit } from '../core/audit.ts'
import type { Db } from '../db/client.ts'
import { users } from '../db/schema/index.ts'
import { CLIENT_ADDRESS_HEADER } from '../http/client-address.ts'
import type { Logger } from '../log.ts'

/**
 * The audit entries of what better-auth does itself: a session created (every way of signing in:
 * password, emailed code, Google, Apple, the sign-up's automatic sign-in) and all other sessions
 * revoked ("sign out everywhere"). better-auth writes those rows through its own adapter, outside
 * any transaction of ours, and runs these hooks after its write has committed; so these entries
 * are written right after the action, in a transaction of their own (decision 0145). An action
 * that failed leaves no entry; a crash between the two could lose one, never invent one.
 */

/** How the session came about, from better-auth's endpoint path. */
export function signInMethod(path: string | undefined, params?: Record<string, string>): string {
  if (!path) return 'unknown'
  if (path.startsWith('/sign-up')) return 'sign_up'
  if (path === '/sign-in/email') return 'password'
  if (path.includes('email-otp')) return 'code'
  if (path.startsWith('/oauth2/callback/') || path.startsWith('/callback/')) {
    return `provider:${params?.providerId ?? params?.id ?? 'unknown'}`
  }
  return path.replace(/^\//, '')
}

/** session.create.after: one 'auth.sign_in.succeeded' entry per new session. */
export async function recordSignIn(
  db: Db,
  session: { id: string; userId: string; ipAddress?: string | null },
  context: { path?: string; params?: Record<string, string> } | null | undefined,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, session.userId))
    await recordAudit(
      tx,
      {
        kind: 'user',
        userId: session.userId,
        apiKeyId: null,
        email: user?.email ?? null,
        clientAddress: session.ipAddress || null,
      },
      {
        action: 'auth.sign_in.succeeded',
        objectType: 'session',
        objectId: session.id,
        after: { method: signInMethod(context?.path, context?.params) },
      },
    )
  })
}

/** better-auth's after-hook: 'auth.sign_out_everywhere' once /revoke-other-sessions succeeded. */
export function signOutEverywhereHook(db: Db, log: Logger) {
  return createAuthMiddleware(async (ctx) => {
    if (ctx.path !== '/revoke-other-sessions' || ctx.context.returned instanceof APIError) return
    const current = await getSessionFromCtx(ctx)
    if (!current) return
    await recordAudit(
      db,
      {
        kind: 'user',
        userId: current.user.id,
        apiKeyId: null,
        email: current.user.email,
        clientAddress: ctx.headers?.get(CLIENT_ADDRESS_HEADER) ?? null,
      },
      {
        action: 'auth.sign_out_everywhere',
        objectType: 'user',
        objectId: current.user.id,
        after: { keptSessionId: current.session.id },
      },
    ).catch((error: unknown) => log.error('audit: recording a sign-out everywhere failed', { err: error }))
  })
}
