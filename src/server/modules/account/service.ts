import { eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { defaultProfileSettings, type Profile, type profileUpdateInput } from '../../../domain/profile.ts'
import type { Db } from '../../db/client.ts'
import { profiles, users } from '../../db/schema/index.ts'

type ProfileRow = typeof profiles.$inferSelect

function toProfile(email: string, row: ProfileRow): Profile {
  return {
    email,
    displayName: row.displayName,
    locale: row.preferredLocale as Profile['locale'],
    timezone: row.timezone as Profile['timezone'],
    theme: row.uiTheme as Profile['theme'],
    notifications: row.notificationPrefs,
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** Inserts the spec's default profile when the user has none. */
async function ensureProfile(db: Db, userId: string) {
  const { mentions, invites } = defaultProfileSettings.notifications
  await db
    .insert(profiles)
    .values({ userId, notificationPrefs: { mentions: { ...mentions }, invites: { ...invites } } })
    .onConflictDoNothing()
}

/** The user's profile; created with the spec's defaults if it is missing. */
export async function getProfile(db: Db, user: { id: string; email: string }): Promise<Profile> {
  await ensureProfile(db, user.id)
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, user.id))
  return toProfile(user.email, row!)
}

/**
 * Applies only the given fields, in one statement (concurrent saves of other fields are kept). The
 * display name is also the account's name, which the session carries to the dashboard's welcome and
 * the avatar menu; both change in one transaction.
 */
export async function updateProfile(
  db: Db,
  user: { id: string; email: string },
  input: z.output<typeof profileUpdateInput>,
): Promise<Profile> {
  await ensureProfile(db, user.id)
  const changes: Partial<typeof profiles.$inferInsert> = {}
  if (input.displayName !== undefined) changes.displayName = input.displayName
  if (input.locale !== undefined) changes.preferredLocale = input.locale
  if (input.timezone !== undefined) changes.timezone = input.timezone
  if (input.theme !== undefined) changes.uiTheme = input.theme
  if (input.notifications !== undefined) changes.notificationPrefs = input.notifications
  if (Object.keys(changes).length > 0) {
    await db.transaction(async (tx) => {
      await tx
        .update(profiles)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(profiles.userId, user.id))
      if (input.displayName !== undefined) {
        await tx
          .update(users)
          .set({ name: input.displayName ?? '', updatedAt: sql`now()` })
          .where(eq(users.id, user.id))
      }
    })
  }
  return getProfile(db, user)
}
