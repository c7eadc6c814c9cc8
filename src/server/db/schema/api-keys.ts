import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import type { ApiKeyScope } from '../../../domain/api-keys.ts'
import { users } from './auth.ts'
import { teams } from './teams.ts'

const ts = (name: string) => timestamp(name, { withTimezone: true })

/** A key pair of one space (a user's personal prompts, or a team's); the secret only as its hash. */
export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  publicKey: text('public_key').notNull().unique(),
  secretHash: text('secret_hash').notNull().unique(),
  secretHint: text('secret_hint').notNull(),
  scope: text('scope').$type<ApiKeyScope>().notNull(),
  createdByUserId: text('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastUsedAt: ts('last_used_at'),
  revokedAt: ts('revoked_at'),
  windowStartedAt: ts('window_started_at').notNull().defaultNow(),
  windowCount: integer('window_count').notNull().default(0),
})
