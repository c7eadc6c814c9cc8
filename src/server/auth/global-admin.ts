import { and, eq, ne, sql } from 'drizzle-orm'
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import { queryRows } from '../db/rows.ts'
import { installation, users } from '../db/schema/index.ts'
import type { Logger } from '../log.ts'

/**
 * Who becomes the installation's global admin (review item 12).
 *
 * With ADMIN_EMAIL, the account with that address, when it signs up or in with its address proven
 * (an emailed code, a completed reset link, Google): a password sign-up proves nothing, and
 * whoever knew the address could otherwise sign up first and take the role. Without SMTP_URL no
 * mail can prove an address, so there any sign-in of that account is enough.
 *
 * Without ADMIN_EMAIL, the installation's first account, as the spec has it; the start-up log
 * says so loudly (`adminSetupWarning`).
 */
type AdminConfig = Pick<Config, 'adminEmail' | 'smtpUrl'>

const grant = (db: Db, userId: string) =>
  db
    .update(users)
    .set({ role: 'global_admin' })
    .where(and(eq(users.id, userId), ne(users.role, 'global_admin')))
    .returning({ email: users.email })

/** After an account is created: it is recorded as the first one if it is; without ADMIN_EMAIL, that makes it admin. */
export async function onAccountCreated(db: Db, config: AdminConfig, log: Logger, userId: string) {
  // The insert into the one-row table decides races between simultaneous sign-ups.
  const first = await queryRows(
    db,
    sql`INSERT INTO installation (id, first_user_id) VALUES (1, ${userId})
        ON CONFLICT (id) DO NOTHING RETURNING first_user_id`,
  )
  if (first.length > 0 && !config.adminEmail) {
    await grant(db, userId)
    log.warn('the first account became global admin (ADMIN_EMAIL is not set)', { userId })
  }
}

/** After a session is created: the ADMIN_EMAIL account becomes admin once its address is proven. */
export async function onSignedIn(db: Db, config: AdminConfig, log: Logger, userId: string) {
  if (!config.adminEmail) return
  const [user] = await db
    .select({ email: users.email, proven: users.emailVerified, role: users.role })
    .from(users)
    .where(eq(users.id, userId))
  if (!user || user.email !== config.adminEmail || user.role === 'global_admin') return
  if (user.proven || !config.smtpUrl) {
    await grant(db, userId)
    log.warn('ADMIN_EMAIL signed in and became global admin', { userId })
  } else {
    log.warn(
      'ADMIN_EMAIL signed in without a proven address; sign in once by emailed code to become global admin',
      {
        userId,
      },
    )
  }
}

/** What the start-up log says about the global admin; null when ADMIN_EMAIL chooses it. */
export async function adminSetupWarning(db: Db, config: AdminConfig): Promise<string | null> {
  if (config.adminEmail) return null
  const [first] = await db
    .select({ email: users.email })
    .from(installation)
    .innerJoin(users, eq(users.id, installation.firstUserId))
  return first
    ? `ADMIN_EMAIL is not set: the first account (${first.email}) is this installation's global admin. Set ADMIN_EMAIL in production.`
    : 'ADMIN_EMAIL is not set: the FIRST ACCOUNT TO SIGN UP becomes the global admin. Set ADMIN_EMAIL in production.'
}
