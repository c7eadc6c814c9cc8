import type { mailEn } from '../en/mail.ts'

export const mailDe: Record<keyof typeof mailEn, string> = {
  'mail.greeting': 'Hallo,',
  'mail.footer': 'Diese E-Mail wurde von Promptfolio ({appUrl}) gesendet.',
  'mail.linkFallback': 'Falls die Schaltfläche nicht funktioniert, kopiere diesen Link in deinen Browser:',
  'mail.code.subject': 'Dein Anmeldecode für Promptfolio',
  'mail.code.intro': 'Mit diesem Code meldest du dich bei Promptfolio an:',
  'mail.code.action': 'Code eingeben',
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
  'mail.access.keySubject': 'Ein neuer Promptfolio-API-Schlüssel wurde erstellt',
  'mail.access.keyPersonal':
    'Soeben wurde ein API-Schlüssel für deine persönlichen Prompts erstellt. Wer sein Geheimnis kennt, kann die API in deinem Namen nutzen, bis der Schlüssel widerrufen wird.',
  'mail.access.keyTeam':
    'Soeben wurde ein API-Schlüssel für ein Team erstellt, das du verwaltest. Wer sein Geheimnis kennt, kann die Prompts des Teams über die API nutzen, bis der Schlüssel widerrufen wird.',
  'mail.access.keyAction': 'API-Schlüssel prüfen',
  'mail.access.detailKey': 'Schlüssel',
  'mail.access.webhookSubject': 'Ein neuer Promptfolio-Webhook-Endpunkt wurde erstellt',
  'mail.access.webhookPersonal':
    'Soeben wurde ein Webhook-Endpunkt für deinen persönlichen Bereich erstellt. Er erhält die abonnierten Ereignisse samt Prompt-Texten, bis er deaktiviert oder gelöscht wird.',
  'mail.access.webhookTeam':
    'Soeben wurde ein Webhook-Endpunkt für ein Team erstellt, das du verwaltest. Er erhält die abonnierten Ereignisse samt den Prompt-Texten des Teams, bis er deaktiviert oder gelöscht wird.',
  'mail.access.webhookAction': 'Webhooks prüfen',
  'mail.access.detailWebhook': 'Endpunkt',
  'mail.access.detailTeam': 'Team',
  'mail.access.detailBy': 'Erstellt von',
  'mail.access.ifNotYou':
    'Wenn du nichts davon weißt, widerrufe ihn jetzt, ändere dann dein Passwort und lass dabei deine API-Schlüssel widerrufen und deine Webhooks deaktivieren.',
}
