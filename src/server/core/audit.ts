import { sql } from 'drizzle-orm'
import type { AuditActorKind, AuditEntryInput } from '../../domain/audit.ts'
import type { Actor } from '../../domain/auth.ts'
import type { Db, Tx } from '../db/client.ts'
import { jsonRecords } from '../db/queries.ts'
import { auditLog } from '../db/schema/index.ts'

/**
 * Who an entry names as its actor. Usually the request's `Actor` (`auditActorOf`); a failed
 * sign-in has nobody signed in, and the server itself acts for jobs.
 */
export interface AuditWho {
  kind: AuditActorKind
  userId: string | null
  apiKeyId: string | null
  email: string | null
  clientAddress: string | null
}

/** The signed-in user, or the API key acting as its user, with the request's client address. */
export function auditActorOf(actor: Pick<Actor, 'id' | 'email' | 'clientAddress' | 'apiKeyId'>): AuditWho {
  return {
    kind: actor.apiKeyId ? 'api_key' : 'user',
    userId: actor.id,
    apiKeyId: actor.apiKeyId ?? null,
    email: actor.email,
    clientAddress: actor.clientAddress ?? null,
  }
}

/**
 * Appends one entry to the audit log. Call it with the transaction of the action it records, after
 * the action's checks: the entry commits with the action or not at all (decision 0145). Entries are
 * never updated or deleted; there is deliberately no function for it.
 */
export async function recordAudit(
  tx: Tx | Db,
  who: AuditWho | Pick<Actor, 'id' | 'email' | 'clientAddress' | 'apiKeyId'>,
  entry: AuditEntryInput,
): Promise<void> {
  await recordAudits(tx, who, [entry])
}

/** Entries per INSERT in `recordAudits`: well under PostgreSQL's 65,535 parameters. */
const ENTRIES_PER_STATEMENT = 1000

/** `recordAudit` for many entries of one actor at once (an import's prompts), in multi-row inserts. */
export async function recordAudits(
  tx: Tx | Db,
  who: AuditWho | Pick<Actor, 'id' | 'email' | 'clientAddress' | 'apiKeyId'>,
  entries: readonly AuditEntryInput[],
): Promise<void> {
  const actor = 'kind' in who ? who : auditActorOf(who)
  const rows = entries.map((entry) => ({
    actorKind: actor.kind,
    actorUserId: actor.userId,
    actorApiKeyId: actor.apiKeyId,
    actorEmail: actor.email,
    clientAddress: actor.clientAddress,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId ?? null,
    teamId: entry.teamId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  }))
  if (rows.length === 1) {
    await tx.insert(auditLog).values(rows)
    return
  }
  // Many at once as one JSON parameter a statement (`jsonRecords`), not a parameter per value.
  for (let at = 0; at < rows.length; at += ENTRIES_PER_STATEMENT) {
    const slice = rows.slice(at, at + ENTRIES_PER_STATEMENT).map((row) => ({
      action: row.action,
      object_type: row.objectType,
      object_id: row.objectId,
      team_id: row.teamId,
      before: row.before,
      after: row.after,
    }))
    await tx.execute(sql`INSERT INTO audit_log
        (actor_kind, actor_user_id, actor_api_key_id, actor_email, client_address, action, object_type, object_id,
         team_id, before, after)
      SELECT ${actor.kind}, ${actor.userId}, ${actor.apiKeyId}::uuid, ${actor.email}, ${actor.clientAddress},
        r.action, r.object_type, r.object_id, r.team_id, r.before, r.after
      FROM ${jsonRecords(slice, 'action text, object_type text, object_id text, team_id uuid, before jsonb, after jsonb')}`)
  }
}
