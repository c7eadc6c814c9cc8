import type { commonEn } from '../en/common.ts'

export const commonDe: Record<keyof typeof commonEn, string> = {
  'error.validation': 'Validierung fehlgeschlagen',
  'error.notAuthenticated': 'Anmeldung erforderlich',
  'error.forbidden': 'Zugriff verweigert',
  'error.notFound': 'Nicht gefunden',
  'error.conflict': 'Konflikt mit dem aktuellen Stand',
  'error.payloadTooLarge': 'Die Anfrage ist zu groß.',
  'error.rateLimited': 'Zu viele Anfragen, bitte später erneut versuchen',
  'error.unexpected': 'Unerwarteter Fehler. Bitte versuche es später erneut',
  'error.transient': 'Der Dienst ist vorübergehend nicht erreichbar, bitte erneut versuchen',
  'error.upstream': 'Der Modellanbieter hat nicht wie erwartet geantwortet. Bitte versuche es erneut.',
  'error.storage':
    'Der Server kann gerade keine Daten speichern (sein Speicher ist voll oder schreibgeschützt). Bitte versuche es später erneut.',
  'error.network': 'Netzwerkfehler, bitte erneut versuchen',
  'error.malformedJson': 'Der Inhalt der Anfrage ist kein gültiges JSON.',
  'error.jsonRequired': 'Anfragen, die Daten ändern, müssen JSON senden.',
  'error.originRejected': 'Diese Anfrage kam von einer anderen Website und wurde abgelehnt.',
  'error.routeNotFound': 'Diesen API-Endpunkt gibt es nicht.',
  'error.globalAdminRequired': 'Zugriff nur für globale Administratoren',
  'error.invalidCursor': 'Ungültiges Cursor-Format',
  'error.unstorableCharacter':
    'Der Text enthält ein Zeichen, das nicht gespeichert werden kann (U+0000 oder ein einzelnes Surrogat)',
  'error.invalidLimit': 'Das Limit muss eine ganze Zahl sein',
  'error.invalidValue': 'Ungültiger Wert',
}
