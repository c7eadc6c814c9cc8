import { sql } from 'drizzle-orm'
import { integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import type { Conversation, Message, MessageRole } from '../../../domain/conversations.ts'
import { users } from './auth.ts'
import { modelProviders } from './models.ts'
import { prompts, promptVersions } from './prompts.ts'
import { teams } from './teams.ts'

const ts = (name: string) => timestamp(name, { withTimezone: true })

export const conversations = pgTable('conversations', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  teamId: uuid('team_id').references(() => teams.id, { onDelete: 'set null' }),
  ownerUserId: text('owner_user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tags: text('tags').array().notNull().default([]),
  content: jsonb('content').$type<Conversation['content']>().notNull().default({}),
  /** The provider and model its replies are generated with (migration 0261). */
  modelProviderId: uuid('model_provider_id').references(() => modelProviders.id, { onDelete: 'set null' }),
  model: text('model'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
})

export const conversationMessages = pgTable('conversation_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  conversationId: uuid('conversation_id')
    .notNull()
    .references(() => conversations.id, { onDelete: 'cascade' }),
  createdByUserId: text('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  role: text('role').$type<MessageRole>().notNull(),
  content: jsonb('content').$type<Message['content']>().notNull(),
  model: text('model'),
  tokenCount: integer('token_count'),
  // clock_timestamp(), not now(): messages appended in one transaction keep their order.
  createdAt: ts('created_at').notNull().default(sql`clock_timestamp()`),
  updatedAt: ts('updated_at').notNull().default(sql`clock_timestamp()`),
})

export const conversationMessagePrompts = pgTable(
  'conversation_message_prompts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => conversationMessages.id, { onDelete: 'cascade' }),
    promptId: uuid('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    promptVersionId: uuid('prompt_version_id').references(() => promptVersions.id, { onDelete: 'cascade' }),
    attachedByUserId: text('attached_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    notes: text('notes'),
    createdAt: ts('created_at').notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    unique('conversation_message_prompts_once')
      .on(t.messageId, t.promptId, t.promptVersionId)
      .nullsNotDistinct(),
  ],
)
