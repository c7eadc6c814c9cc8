import { bigint, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import type { BuildOverallStatus, BuildReport } from '../../../domain/admin.ts'

const ts = (name: string) => timestamp(name, { withTimezone: true })

/** Build reports made by the server (migration 0140): saved when the counts change, 10 kept. */
export const buildReports = pgTable('build_reports', {
  id: uuid('id').primaryKey().defaultRandom(),
  createdAt: ts('created_at').notNull().defaultNow(),
  version: text('version').notNull(),
  commit: text('commit'),
  overallStatus: text('overall_status').$type<BuildOverallStatus>().notNull(),
  total: integer('total').notNull(),
  completed: integer('completed').notNull(),
  partial: integer('partial').notNull(),
  missing: integer('missing').notNull(),
  highPriorityMissing: integer('high_priority_missing').notNull(),
  report: jsonb('report').$type<BuildReport>().notNull(),
})

/** The admin user list's totals (migration 0205), kept by triggers on users; one row, id 1. */
export const userCounts = pgTable('user_counts', {
  id: smallint('id').primaryKey().default(1),
  users: bigint('users', { mode: 'number' }).notNull(),
  admins: bigint('admins', { mode: 'number' }).notNull(),
})

/** The number of teams (migration 0246), kept by triggers on teams; one row, id 1. */
export const teamCounts = pgTable('team_counts', {
  id: smallint('id').primaryKey().default(1),
  teams: bigint('teams', { mode: 'number' }).notNull(),
})
