import type { profileEn } from '../en/profile.ts'

export const profileDe: Record<keyof typeof profileEn, string> = {
  'profile.displayNameMax': 'Anzeigename darf höchstens 80 Zeichen haben',
  'profile.displayNameInvalid': 'Anzeigename muss Text sein',
  'profile.localeInvalid': 'Wähle Englisch oder Deutsch',
  'profile.timezoneInvalid': 'Wähle eine Zeitzone aus der Liste',
  'profile.themeInvalid': 'Wähle System, Hell oder Dunkel',
  'profile.notificationsInvalid': 'Die Benachrichtigungseinstellungen sind unvollständig',
}
