import { z } from 'zod'
import { DISPLAY_NAME_MAX } from './constants.ts'
import { locales } from './messages/locales.ts'

/** The spec's timezone list. */
export const timezones = [
  'UTC',
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/Los_Angeles',
  'America/Chicago',
  'Asia/Tokyo',
  'Asia/Singapore',
] as const

export const themes = ['system', 'light', 'dark'] as const
export type Theme = (typeof themes)[number]

const channel = z.object({ in_app: z.boolean(), email: z.boolean() }).strict()
const notificationPrefsSchema = z.object({ mentions: channel, invites: channel })
export type NotificationPrefs = z.infer<typeof notificationPrefsSchema>

/** What GET /api/v1/profile answers: the signed-in user's profile (email read-only). */
export const profileSchema = z.object({
  email: z.string(),
  displayName: z.string().nullable(),
  locale: z.enum(locales),
  timezone: z.enum(timezones),
  theme: z.enum(themes),
  notifications: notificationPrefsSchema,
  updatedAt: z.string(),
})
export type Profile = z.infer<typeof profileSchema>

/** The spec's defaults when no profile exists. */
export const defaultProfileSettings = {
  displayName: null,
  locale: 'en',
  timezone: 'UTC',
  theme: 'system',
  notifications: { mentions: { in_app: true, email: true }, invites: { in_app: true, email: true } },
} as const satisfies Omit<Profile, 'email' | 'updatedAt'>

/**
 * PATCH /api/v1/profile: only the changed fields. The display name is trimmed; empty clears it.
 */
export const profileUpdateInput = z
  .object({
    displayName: z
      .string({ error: 'profile.displayNameInvalid' })
      .trim()
      .max(DISPLAY_NAME_MAX, 'profile.displayNameMax')
      .transform((value) => (value === '' ? null : value))
      .nullable(),
    locale: z.enum(locales, { error: 'profile.localeInvalid' }),
    timezone: z.enum(timezones, { error: 'profile.timezoneInvalid' }),
    theme: z.enum(themes, { error: 'profile.themeInvalid' }),
    notifications: z
      .object({ mentions: channel, invites: channel }, { error: 'profile.notificationsInvalid' })
      .strict(),
  })
  .partial()
  .strict()
export type ProfileUpdateInput = z.input<typeof profileUpdateInput>

/** The fields of `next` that differ from `current` (what the profile form sends). */
export function changedProfileFields(
  current: Omit<Profile, 'email' | 'updatedAt'>,
  next: Omit<Profile, 'email' | 'updatedAt'>,
): ProfileUpdateInput {
  const changes: ProfileUpdateInput = {}
  const name = next.displayName?.trim() || null
  if (name !== (current.displayName ?? null)) changes.displayName = name ?? ''
  if (next.locale !== current.locale) changes.locale = next.locale
  if (next.timezone !== current.timezone) changes.timezone = next.timezone
  if (next.theme !== current.theme) changes.theme = next.theme
  if (!sameNotifications(next.notifications, current.notifications))
    changes.notifications = next.notifications
  return changes
}

function sameNotifications(a: NotificationPrefs, b: NotificationPrefs): boolean {
  return (['mentions', 'invites'] as const).every(
    (kind) => a[kind].in_app === b[kind].in_app && a[kind].email === b[kind].email,
  )
}

/** The profile form: every editable field (the display name as typed; empty means none). */
export const profileFormSchema = z.object({
  displayName: z.string().trim().max(DISPLAY_NAME_MAX, 'profile.displayNameMax'),
  locale: z.enum(locales, { error: 'profile.localeInvalid' }),
  timezone: z.enum(timezones, { error: 'profile.timezoneInvalid' }),
  theme: z.enum(themes, { error: 'profile.themeInvalid' }),
  notifications: z.object({ mentions: channel, invites: channel }),
})
export type ProfileForm = z.output<typeof profileFormSchema>
