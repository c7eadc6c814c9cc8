import type { dataRightsEn } from '../en/data-rights.ts'

/** Daten exportieren, Konto löschen, Team löschen (Issue 18), und die zugehörigen Mails. */
export const dataRightsDe: Record<keyof typeof dataRightsEn, string> = {
  'account.exportNotFound': 'Export nicht gefunden',
  'account.exportNotReady': 'Dieser Export wird noch erstellt',
  'account.exportDownloaded': 'Dieser Export wurde bereits heruntergeladen; starten Sie einen neuen',
  'account.exportFailed': 'Dieser Export ist fehlgeschlagen; starten Sie einen neuen',
  'account.confirmRequired': 'Geben Sie zur Bestätigung Ihr Passwort ein (oder den Code aus unserer Mail)',
  'account.confirmInvalid': 'Das Passwort oder der Code ist nicht richtig',
  'account.deletionHasPassword': 'Dieses Konto hat ein Passwort: Bestätigen Sie damit statt mit einem Code',
  'account.soleTeamAdmin':
    'Sie sind der einzige Admin von {teams}. Machen Sie zuerst ein anderes Mitglied zum Admin oder löschen Sie das Team.',
  'account.lastGlobalAdmin':
    'Sie sind der letzte globale Admin dieser Installation. Machen Sie zuerst jemand anderen zum globalen Admin.',
  'account.deletedUser': 'Gelöschter Benutzer',
  'account.mail.codeSubject': 'Ihr Code zum Löschen Ihres Promptfolio-Kontos',
  'account.mail.codeBody': 'Jemand (hoffentlich Sie) möchte Ihr Promptfolio-Konto löschen. Ihr Code:',
  'account.mail.codeValid':
    'Der Code ist 10 Minuten gültig. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Mail: Ohne ihn geschieht nichts.',
  'account.mail.deletedSubject': 'Ihr Promptfolio-Konto wurde gelöscht',
  'account.mail.deletedBody':
    'Ihr Promptfolio-Konto und Ihre persönlichen Prompts, Unterhaltungen, Sitzungen und Schlüssel wurden gelöscht. Was Sie mit einem Team geteilt haben, bleibt beim Team, als von einem gelöschten Benutzer.',
  'account.mail.deletedOutro': 'Wenn Sie das nicht waren, antworten Sie sofort auf diese Mail.',
  'teams.deleteConfirmMismatch': 'Geben Sie zur Bestätigung den Namen des Teams genau ein',
  'teams.mail.deletedSubject': 'Ein Team, in dem Sie Mitglied waren, wurde gelöscht',
  'teams.mail.deletedBody':
    'Ein Team-Admin hat dieses Team mit seinen Prompts, Unterhaltungen und Einladungen gelöscht:',
  'teams.mail.deletedBy': 'Gelöscht von',
}
