import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { apiKeys } from '../../db/schema/index.ts'

/** Whether a key with this public key exists and is not revoked (public keys are not secrets). */
export async function isLivePublicKey(db: Db, publicKey: string): Promise<boolean> {
  if (publicKey === '') return false
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.publicKey, publicKey), isNull(apiKeys.revokedAt)))
    .limit(1)
  return row !== undefined
}
