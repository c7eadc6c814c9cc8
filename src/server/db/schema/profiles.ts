import { jsonb, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

export interface NotificationPrefs {
  mentions: { in_app: boolean; email: boolean }
  invites: { in_app: boolean; email: boolean }
}

export const profiles = pgTable('profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  displayName: varchar('display_name', { length: 80 }),
  preferredLocale: text('preferred_locale').notNull().default('en'),
  timezone: text('timezone').notNull().default('UTC'),
  uiTheme: text('ui_theme').notNull().default('system'),
  notificationPrefs: jsonb('notification_prefs').$type<NotificationPrefs>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
