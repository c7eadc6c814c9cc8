import type { authEn } from '../en/auth.ts'

export const authDe: Record<keyof typeof authEn, string> = {
  'validation.emailRequired': 'E-Mail ist erforderlich',
  'validation.emailInvalid': 'Bitte gib eine gültige E-Mail-Adresse ein',
  'validation.passwordRequired': 'Passwort ist erforderlich',
  'validation.passwordMin': 'Passwort muss mindestens 12 Zeichen haben',
  'validation.passwordMax': 'Passwort darf höchstens 128 Zeichen haben',
  'validation.passwordsMismatch': 'Passwörter stimmen nicht überein',
  'validation.termsRequired': 'Du musst den Nutzungsbedingungen und der Datenschutzerklärung zustimmen',
  'auth.emailTaken': 'Diese E-Mail-Adresse ist bereits registriert',
  'auth.invalidCredentials': 'Ungültige E-Mail oder Passwort',
  'auth.tooManyAttempts': 'Zu viele Versuche. Bitte später erneut versuchen',
  'auth.rateLimitWait': 'Limit erreicht. Bitte warte {seconds} Sekunden, bevor du es erneut versuchst.',
  'auth.signInFailed': 'Anmeldung fehlgeschlagen',
  'auth.signInRequired': 'Anmeldung erforderlich',
  'auth.weakPassword': 'Passwort erfüllt nicht die Anforderungen',
}
