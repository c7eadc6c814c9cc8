import type { en } from './en.ts'

/** German texts; the spec's German sign-in messages are used word for word. */
export const de: Record<keyof typeof en, string> = {
  'error.validation': 'Validierung fehlgeschlagen',
  'error.notAuthenticated': 'Anmeldung erforderlich',
  'error.forbidden': 'Zugriff verweigert',
  'error.notFound': 'Nicht gefunden',
  'error.conflict': 'Konflikt mit dem aktuellen Stand',
  'error.payloadTooLarge': 'Die Anfrage ist zu groß.',
  'error.rateLimited': 'Zu viele Anfragen, bitte später erneut versuchen',
  'error.unexpected': 'Unerwarteter Fehler. Bitte versuche es später erneut',
  'error.transient': 'Der Dienst ist vorübergehend nicht erreichbar, bitte erneut versuchen',
  'error.network': 'Netzwerkfehler, bitte erneut versuchen',
  'error.malformedJson': 'Der Inhalt der Anfrage ist kein gültiges JSON.',
  'error.jsonRequired': 'Anfragen, die Daten ändern, müssen JSON senden.',
  'error.originRejected': 'Diese Anfrage kam von einer anderen Website und wurde abgelehnt.',
  'error.routeNotFound': 'Diesen API-Endpunkt gibt es nicht.',
  'error.globalAdminRequired': 'Zugriff nur für globale Administratoren',
  'error.invalidCursor': 'Ungültiges Cursor-Format',
  'error.invalidValue': 'Ungültiger Wert',

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
