import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

export type SignInMethod = 'password' | 'code' | 'direct_reset'

/** One row per failed sign-in attempt (no secrets), for the admin area's security figures. */
export const failedSignIns = pgTable('failed_sign_ins', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  method: text('method').$type<SignInMethod>().notNull(),
  reason: text('reason').notNull(),
  ip: text('ip'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** A password recovery session: the SHA-256 of the token in the browser's recovery cookie. */
export const recoverySessions = pgTable('recovery_sessions', {
  tokenHash: text('token_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
