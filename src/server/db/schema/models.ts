import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import type { ProviderKind } from '../../../domain/models.ts'
import { users } from './auth.ts'
import { teams } from './teams.ts'

const ts = (name: string) => timestamp(name, { withTimezone: true })

/** A language-model provider of one space (a user's personal space, or a team's); its key sealed. */
export const modelProviders = pgTable('model_providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
  kind: text('kind').$type<ProviderKind>().notNull(),
  name: text('name').notNull(),
  baseUrl: text('base_url').notNull(),
  sealedKey: text('sealed_key').notNull(),
  keyHint: text('key_hint').notNull(),
  models: text('models').array().notNull().default([]),
  defaultModel: text('default_model').notNull().default(''),
  createdByUserId: text('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
})
