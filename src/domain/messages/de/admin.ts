import type { adminEn } from '../en/admin.ts'

export const adminDe: Record<keyof typeof adminEn, string> = {
  'admin.userNotFound': 'Benutzer nicht gefunden',
  'admin.roleInvalid': "Die Rolle muss 'user' oder 'global_admin' sein",
  'admin.lastAdmin':
    'Der letzte globale Administrator kann nicht herabgestuft werden. Ernenne zuerst jemand anderen.',
  'admin.confirmSelf': 'Du entziehst dir selbst die Rolle als globaler Administrator. Bitte bestätige das.',
  'admin.adminEmailRole':
    'Dieses Konto ist die ADMIN_EMAIL der Installation und wird bei der nächsten Anmeldung wieder globaler Administrator. Ändere zuerst ADMIN_EMAIL.',
}
