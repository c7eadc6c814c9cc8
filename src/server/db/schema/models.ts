import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
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

/** One request that reached a provider: a prompt run or a conversation reply (migration 0261). */
export const modelRuns = pgTable('model_runs', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
  providerId: uuid('provider_id').references(() => modelProviders.id, { onDelete: 'set null' }),
  kind: text('kind').$type<'prompt' | 'reply'>().notNull(),
  promptId: uuid('prompt_id'),
  conversationId: uuid('conversation_id'),
  model: text('model').notNull(),
  outcome: text('outcome').notNull(),
  inputTokens: integer('input_tokens'),
  outputTokens: integer('output_tokens'),
  durationMs: integer('duration_ms').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
})
