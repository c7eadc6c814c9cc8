import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { conversations } from './conversations.ts'
import { modelProviders } from './models.ts'
import { prompts } from './prompts.ts'
import { teams } from './teams.ts'

const ts = (name: string) => timestamp(name, { withTimezone: true })

/** One request that reached a provider: a prompt run or a conversation reply (migration 0261). */
export const modelRuns = pgTable('model_runs', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
  providerId: uuid('provider_id').references(() => modelProviders.id, { onDelete: 'set null' }),
  kind: text('kind').$type<'prompt' | 'reply'>().notNull(),
  promptId: uuid('prompt_id').references(() => prompts.id, { onDelete: 'set null' }),
  conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
  model: text('model').notNull(),
  outcome: text('outcome').notNull(),
  inputTokens: integer('input_tokens'),
  outputTokens: integer('output_tokens'),
  durationMs: integer('duration_ms').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
})
