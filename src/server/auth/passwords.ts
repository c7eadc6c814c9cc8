import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { accounts, sessions } from '../db/schema/index.ts'

/**
 * Sets a user's password (an argon2id hash) and ends all their sessions in one transaction: either
 * both happen or neither. An account without a password yet (signed up by code or Google) gets one.
 */
export async function replacePassword(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.transaction(async (tx) => {
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
  })
}
