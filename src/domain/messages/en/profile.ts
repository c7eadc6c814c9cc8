/** Profile settings. */
export const profileEn = {
  'profile.displayNameMax': 'Display name must be ≤ 80 characters',
  'profile.displayNameInvalid': 'Display name must be text',
  'profile.localeInvalid': 'Choose English or German',
  'profile.timezoneInvalid': 'Choose a timezone from the list',
  'profile.themeInvalid': 'Choose system, light or dark',
  'profile.notificationsInvalid': 'Notification settings are incomplete',
} as const
