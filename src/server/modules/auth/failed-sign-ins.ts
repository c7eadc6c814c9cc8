import { eq, sql } from 'drizzle-orm'
import { recordAudit } from '../../core/audit.ts'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'
import { failedSignIns, type SignInMethod, users } from '../../db/schema/index.ts'

/**
 * Records a failed sign-in (never the password or code): the address tried, the account if one
 * exists, how, why, and from where. The admin area reads these counts.
 */
export async function recordFailedSignIn(
  db: Db,
  attempt: { email: string; method: SignInMethod; reason: string; ip: string },
) {
  // The counter row and the audit entry are one transaction: both or neither.
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, attempt.email))
    await tx.insert(failedSignIns).values({ ...attempt, userId: user?.id ?? null })
    await recordAudit(
      tx,
      { kind: 'anonymous', userId: null, apiKeyId: null, email: attempt.email, clientAddress: attempt.ip },
      {
        action: 'auth.sign_in.failed',
        objectType: 'user',
        objectId: user?.id ?? null,
        after: { method: attempt.method, reason: attempt.reason },
      },
    )
  })
}

/** Failed sign-ins since `since` (for the admin area's security figures). */
export async function countFailedSignIns(db: Db, since: Date): Promise<number> {
  const [row] = await queryRows<{ count: number | string }>(
    db,
    sql`SELECT count(*) AS count FROM failed_sign_ins WHERE created_at >= ${since.toISOString()}`,
  )
  return Number(row?.count ?? 0)
}
