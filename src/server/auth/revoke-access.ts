import { and, eq, isNull, or, sql } from 'drizzle-orm'
import { type AuditWho, recordAudit } from '../core/audit.ts'
import type { Tx } from '../db/client.ts'
import { apiKeys, webhookEndpoints } from '../db/schema/index.ts'

/** What `revokeAccessOf` ended: the counts go into the password reset's audit entry. */
export interface RevokedAccess {
  apiKeys: number
  webhooks: number
}

/**
 * Ends the lasting ways into an account that someone holding its session could have made: its
 * personal API keys and the team keys it created are revoked, its personal webhook endpoints and
 * the team endpoints it created are disabled (kept, with their log, to be reviewed and enabled
 * again). Runs in the password change's transaction; each one is audited as its own change.
 */
export async function revokeAccessOf(tx: Tx, userId: string, who: AuditWho): Promise<RevokedAccess> {
  const revokedKeys = await tx
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        isNull(apiKeys.revokedAt),
        or(eq(apiKeys.ownerUserId, userId), eq(apiKeys.createdByUserId, userId)),
      ),
    )
    .returning({
      id: apiKeys.id,
      teamId: apiKeys.teamId,
      name: apiKeys.name,
      publicKey: apiKeys.publicKey,
      scope: apiKeys.scope,
    })
  for (const key of revokedKeys) {
    await recordAudit(tx, who, {
      action: 'api_key.revoked',
      objectType: 'api_key',
      objectId: key.id,
      teamId: key.teamId,
      before: { name: key.name, scope: key.scope, publicKey: key.publicKey },
      after: { revokedBy: 'password_reset' },
    })
  }
  const disabledWebhooks = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, updatedAt: sql`now()` })
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        or(eq(webhookEndpoints.ownerUserId, userId), eq(webhookEndpoints.createdByUserId, userId)),
      ),
    )
    .returning({ id: webhookEndpoints.id, teamId: webhookEndpoints.teamId, url: webhookEndpoints.url })
  for (const endpoint of disabledWebhooks) {
    await recordAudit(tx, who, {
      action: 'webhook.endpoint.changed',
      objectType: 'webhook_endpoint',
      objectId: endpoint.id,
      teamId: endpoint.teamId,
      before: { enabled: true },
      after: { change: 'updated', url: endpoint.url, enabled: false, disabledBy: 'password_reset' },
    })
  }
  return { apiKeys: revokedKeys.length, webhooks: disabledWebhooks.length }
}
