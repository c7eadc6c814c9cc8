import { sql } from 'drizzle-orm'
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import type { ExportStatus } from '../../../domain/data-rights.ts'
import { users } from './auth.ts'

const ts = (name: string) => timestamp(name, { withTimezone: true })

/** One export of a user's data: built in the background, downloaded once (then `archive` is cleared). */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<ExportStatus>().notNull().default('pending'),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    archive: text('archive'),
    createdAt: ts('created_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    downloadedAt: ts('downloaded_at'),
  },
  (t) => [
    index('data_exports_user_idx').on(t.userId, t.createdAt.desc()),
    index('data_exports_open_idx').on(t.createdAt).where(sql`status IN ('pending', 'running')`),
  ],
)
