import type { mailEn } from '../en/mail.ts'

export const mailDe: Record<keyof typeof mailEn, string> = {
  'mail.greeting': 'Hallo,',
  'mail.footer': 'Diese E-Mail wurde von Promptfolio ({appUrl}) gesendet.',
  'mail.linkFallback': 'Falls die Schaltfläche nicht funktioniert, kopiere diesen Link in deinen Browser:',
  'mail.code.subject': 'Dein Anmeldecode für Promptfolio',
  'mail.code.intro': 'Mit diesem Code meldest du dich bei Promptfolio an:',
  'mail.code.validity': 'Der Code ist 10 Minuten gültig und funktioniert einmal.',
  'mail.code.ignore': 'Falls du dich nicht anmelden wolltest, kannst du diese E-Mail ignorieren.',
  'mail.reset.subject': 'Setze dein Promptfolio-Passwort zurück',
  'mail.reset.intro': 'Jemand möchte das Passwort deines Promptfolio-Kontos zurücksetzen.',
  'mail.reset.action': 'Neues Passwort wählen',
  'mail.reset.validity': 'Der Link funktioniert einmal und läuft in 30 Minuten ab.',
  'mail.reset.ignore': 'Falls du das nicht warst, ignoriere diese E-Mail: Dein Passwort bleibt unverändert.',
  'mail.test.subject': 'Promptfolio-Test-E-Mail',
  'mail.test.body':
    'Dies ist eine Test-E-Mail, gesendet von {admin} über die E-Mail-Debug-Seite. Der Versand funktioniert.',
  'mail.notFound': 'E-Mail nicht gefunden',
  'mail.notRetryable': 'Nur fehlgeschlagene E-Mails können erneut gesendet werden.',
}
