import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import type { AuditAction, AuditActorKind, AuditObjectType, AuditState } from '../../../domain/audit.ts'

/**
 * The append-only audit log (migration 0145): written only through `recordAudit`, never updated or
 * deleted (a trigger refuses both). No foreign keys: an entry outlives what it names.
 */
export const auditLog = pgTable('audit_log', {
  id: uuid('id').primaryKey().defaultRandom(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  actorKind: text('actor_kind').$type<AuditActorKind>().notNull(),
  actorUserId: text('actor_user_id'),
  actorApiKeyId: uuid('actor_api_key_id'),
  actorEmail: text('actor_email'),
  action: text('action').$type<AuditAction>().notNull(),
  objectType: text('object_type').$type<AuditObjectType>().notNull(),
  objectId: text('object_id'),
  teamId: uuid('team_id'),
  before: jsonb('before').$type<AuditState>(),
  after: jsonb('after').$type<AuditState>(),
  clientAddress: text('client_address'),
})
