import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import type { PromptType } from '../../../domain/prompt-names.ts'
import type { Variables } from '../../../domain/prompt-variables.ts'
import { apiKeys } from './api-keys.ts'
import { users } from './auth.ts'
import { teams } from './teams.ts'

const ts = (name: string) => timestamp(name, { withTimezone: true })
/** PostgreSQL's text-search vector; only the database reads it (in `@@` and `ts_rank`). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

export const prompts = pgTable('prompts', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerUserId: text('owner_user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').references(() => teams.id),
  title: text('title').notNull(),
  /**
   * Unique in its space (personal or team); the public API's handle. The services always set it
   * (from the title or the caller); the default only serves rows written directly (test fixtures).
   */
  name: text('name')
    .notNull()
    .$defaultFn(() => `prompt-${crypto.randomUUID()}`),
  type: text('type').$type<PromptType>().notNull().default('text'),
  description: text('description'),
  tags: text('tags').array().notNull().default([]),
  visibility: text('visibility').$type<'private' | 'team'>().notNull().default('private'),
  currentVersionId: uuid('current_version_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  /** The title's and the description's words, stored for search (decision 0236); never read into the app. */
  titleSearch: tsvector('title_search').notNull().generatedAlwaysAs(sql`to_tsvector('simple', title)`),
  descriptionSearch: tsvector('description_search')
    .notNull()
    .generatedAlwaysAs(sql`to_tsvector('simple', coalesce(description, ''))`),
  /**
   * The current version's body and its words, copied by a trigger when the current version changes
   * (decision 0255), for search; never read into the app.
   */
  currentBody: text('current_body').notNull().default(''),
  currentBodySearch: tsvector('current_body_search').notNull().default(sql`''::tsvector`),
  /** How many versions the prompt has, kept by a trigger for the dashboard (decision 0264). */
  versionCount: integer('version_count').notNull().default(0),
  /** Whether a version newer than the current one exists, kept by a trigger (decision 0264). */
  currentBehind: boolean('current_behind').notNull().default(false),
})

export const promptVersions = pgTable(
  'prompt_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    promptId: uuid('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    versionNumber: integer('version_number').notNull(),
    body: text('body').notNull(),
    changelog: text('changelog'),
    createdByUserId: text('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Model settings (any JSON object). */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    /** Declared variables: name, type, required, default, description, enum values. */
    variables: jsonb('variables').$type<Variables>().notNull().default([]),
    createdByApiKeyId: uuid('created_by_api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The body's words, stored for search (decision 0215); never read into the app. */
    bodySearch: tsvector('body_search').notNull().generatedAlwaysAs(sql`to_tsvector('simple', body)`),
  },
  (t) => [unique().on(t.promptId, t.versionNumber), unique().on(t.id, t.promptId)],
)

/**
 * The prompt names each version includes with a `@@@langfusePrompt:name=…@@@` tag (decision 0210):
 * "Used by" and the refusal to delete an included prompt read these, never the bodies.
 */
export const promptDependencies = pgTable(
  'prompt_dependencies',
  {
    versionId: uuid('version_id').notNull(),
    promptId: uuid('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.versionId, t.name] }),
    foreignKey({
      columns: [t.versionId, t.promptId],
      foreignColumns: [promptVersions.id, promptVersions.promptId],
    }).onDelete('cascade'),
  ],
)

/** Labels besides 'production' (prompts.current_version_id) and 'latest' (the highest version). */
export const promptLabels = pgTable(
  'prompt_labels',
  {
    promptId: uuid('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    versionId: uuid('version_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.promptId, t.label] }),
    foreignKey({
      columns: [t.versionId, t.promptId],
      foreignColumns: [promptVersions.id, promptVersions.promptId],
    }).onDelete('cascade'),
  ],
)

/** Label history: who moved which label from which version number to which, and when. */
export const promptLabelEvents = pgTable('prompt_label_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  promptId: uuid('prompt_id')
    .notNull()
    .references(() => prompts.id, { onDelete: 'cascade' }),
  label: text('label').notNull(),
  fromVersion: integer('from_version'),
  toVersion: integer('to_version'),
  actorUserId: text('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
  apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
  // clock_timestamp(), as the migration says: moves in one transaction keep their order.
  createdAt: ts('created_at').notNull().default(sql`clock_timestamp()`),
})

/** Labels only a team's admins move. */
export const teamProtectedLabels = pgTable(
  'team_protected_labels',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.label] })],
)

/**
 * The dashboard's totals per person and space (decisions 0255, 0258; migrations 0257, 0259): rows
 * of changes added by triggers in the writing transaction, folded hourly; a total adds them up.
 * `spaceId` is a team's id, or the nil uuid for the personal prompts.
 */
export const dashboardCounts = pgTable(
  'dashboard_counts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id').notNull(),
    spaceId: uuid('space_id').notNull(),
    prompts: bigint('prompts', { mode: 'number' }).notNull().default(0),
    versions: bigint('versions', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('dashboard_counts_user_space_idx').on(t.userId, t.spaceId)],
)

/**
 * The dashboard's counts per space, person and UTC day (decision 0268; migration 0268): rows of
 * changes added by triggers in the writing transaction, folded hourly; the pulse and the weekly
 * chart add up the days of their window. `userId` is null for a version no person wrote.
 */
export const dashboardDays = pgTable(
  'dashboard_days',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: uuid('space_id').notNull(),
    userId: text('user_id'),
    day: date('day').notNull(),
    prompts: integer('prompts').notNull().default(0),
    versions: integer('versions').notNull().default(0),
    revisions: integer('revisions').notNull().default(0),
    conversations: integer('conversations').notNull().default(0),
  },
  (t) => [
    index('dashboard_days_space_day_idx').on(t.spaceId, t.day),
    index('dashboard_days_user_day_idx').on(t.userId, t.day),
  ],
)

/**
 * How often each prompt is attached to conversation messages, with its space and owner (decision
 * 0276; migration 0271): rows of changes added by triggers in the writing transaction, folded
 * hourly; the dashboard's "most used" adds up the rows of its context. `spaceId` is a team's id for
 * a shared prompt, the nil uuid for a private one; `userId` the prompt's owner.
 */
export const dashboardUses = pgTable(
  'dashboard_uses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: uuid('space_id').notNull(),
    userId: text('user_id').notNull(),
    promptId: uuid('prompt_id').notNull(),
    uses: integer('uses').notNull(),
  },
  (t) => [
    index('dashboard_uses_user_idx').on(t.userId, t.promptId),
    index('dashboard_uses_space_idx').on(t.spaceId, t.promptId),
  ],
)
