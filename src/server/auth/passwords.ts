import { hash, randomBytes } from 'node:crypto'
import { and, eq, gt, sql } from 'drizzle-orm'
import { RECOVERY_SESSION_TTL_SECONDS } from '../../domain/constants.ts'
import { type AuditWho, recordAudit } from '../core/audit.ts'
import type { Db, Tx } from '../db/client.ts'
import { accounts, recoverySessions, sessions, users, verifications } from '../db/schema/index.ts'
import { revokeAccessOf } from './revoke-access.ts'

/**
 * Ends every way into the account that an earlier reset mail opened: the recovery sessions and the
 * reset links not yet used. better-auth keeps a link as a verification row whose value is the
 * account's id (its token stored hashed); no other verification the app uses holds an account id
 * (sign-in codes hold the code, provider sign-ins their state).
 */
export async function endPasswordRecovery(db: Db | Tx, userId: string): Promise<void> {
  await db.delete(recoverySessions).where(eq(recoverySessions.userId, userId))
  await db.delete(verifications).where(eq(verifications.value, userId))
}

/** Before a new reset link is made for `email`: the links and recovery sessions before it end. */
export async function endPasswordRecoveryOf(db: Db, email: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email))
    if (user) await endPasswordRecovery(tx, user.id)
  })
}

/**
 * Sets a user's password (an argon2id hash) and ends all their sessions, recovery sessions and
 * reset links, in one transaction: either all of it happens or none. An account without a
 * password yet (signed up by code or Google) gets one. `proven`: the change came through a mailed
 * link, which proves the address. `revokeAccess`: the keys and webhooks the account made end too
 * (sessions alone do not close what a stolen session left behind).
 */
export async function replacePassword(
  tx: Tx,
  userId: string,
  passwordHash: string,
  audit: { who: AuditWho; method: 'reset_link' | 'direct_reset' | 'admin_set' },
  options: { proven?: boolean; revokeAccess?: boolean } = {},
): Promise<void> {
  const updated = await tx
    .update(accounts)
    .set({ password: passwordHash, updatedAt: new Date() })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
    .returning({ id: accounts.id })
  if (updated.length === 0) {
    await tx.insert(accounts).values({
      id: crypto.randomUUID(),
      userId,
      accountId: userId,
      providerId: 'credential',
      password: passwordHash,
    })
  }
  await tx.delete(sessions).where(eq(sessions.userId, userId))
  await endPasswordRecovery(tx, userId)
  if (options.proven) await tx.update(users).set({ emailVerified: true }).where(eq(users.id, userId))
  const revoked = options.revokeAccess ? await revokeAccessOf(tx, userId, audit.who) : null
  await recordAudit(tx, audit.who, {
    action: 'auth.password_reset',
    objectType: 'user',
    objectId: userId,
    after: { method: audit.method, sessionsEnded: true, ...(revoked && { accessRevoked: revoked }) },
  })
}

const hashToken = (token: string) => hash('sha256', token, 'base64url')

/** Opens a recovery session for the account; the token goes into the browser's cookie. */
export async function openRecoverySession(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await db.insert(recoverySessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + RECOVERY_SESSION_TTL_SECONDS * 1000),
  })
  return token
}

/** The address whose password the recovery session may set, while it is open. */
export async function recoveryEmail(db: Db, token: string | undefined): Promise<string | null> {
  if (!token) return null
  const [row] = await db
    .select({ email: users.email })
    .from(recoverySessions)
    .innerJoin(users, eq(users.id, recoverySessions.userId))
    .where(and(eq(recoverySessions.tokenHash, hashToken(token)), gt(recoverySessions.expiresAt, sql`now()`)))
  return row?.email ?? null
}

/**
 * Sets the password through an open recovery session, which is used up by it (two tabs racing
 * with one cookie: one wins). Returns false when the session is not (or no longer) open.
 */
export async function setPasswordByRecovery(
  db: Db,
  token: string | undefined,
  passwordHash: string,
  clientAddress: string,
  options: { revokeAccess?: boolean } = {},
) {
  if (!token) return false
  return db.transaction(async (tx) => {
    const [used] = await tx
      .delete(recoverySessions)
      .where(
        and(eq(recoverySessions.tokenHash, hashToken(token)), gt(recoverySessions.expiresAt, sql`now()`)),
      )
      .returning({ userId: recoverySessions.userId })
    if (!used) return false
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, used.userId))
    const who: AuditWho = {
      kind: 'user',
      userId: used.userId,
      apiKeyId: null,
      email: user?.email ?? null,
      clientAddress,
    }
    await replacePassword(
      tx,
      used.userId,
      passwordHash,
      { who, method: 'reset_link' },
      { proven: true, revokeAccess: options.revokeAccess },
    )
    return true
  })
}
