import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import type { ChoosablePlanId, PlanRequestStatus } from '../../../domain/plans.ts'
import { users } from './auth.ts'
import { teams } from './teams.ts'

const ts = (name: string) => timestamp(name, { withTimezone: true })

/** The plan a user or team chose (migration 0120); its row is the subject's gate lock. */
export const planSubjects = pgTable('plan_subjects', {
  subjectKey: text('subject_key').primaryKey(),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
  plan: text('plan').$type<ChoosablePlanId>(),
  planSetAt: ts('plan_set_at'),
  planSetByUserId: text('plan_set_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
})

/** Requests for a paid plan, waiting for the billing provider (manual: a global admin). */
export const planRequests = pgTable('plan_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  subjectKey: text('subject_key')
    .notNull()
    .references(() => planSubjects.subjectKey, { onDelete: 'cascade' }),
  plan: text('plan').$type<ChoosablePlanId>().notNull(),
  status: text('status').$type<PlanRequestStatus>().notNull().default('pending'),
  provider: text('provider').notNull(),
  providerRef: text('provider_ref'),
  requestedByUserId: text('requested_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  decidedAt: ts('decided_at'),
  decidedByUserId: text('decided_by_user_id').references(() => users.id, { onDelete: 'set null' }),
})
