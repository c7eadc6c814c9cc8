import type { dataRightsEn } from '../en/data-rights.ts'

/** Daten exportieren, Konto löschen, Team löschen, und die zugehörigen Mails. */
export const dataRightsDe: Record<keyof typeof dataRightsEn, string> = {
  'account.exportNotFound': 'Export nicht gefunden',
  'account.exportNotReady': 'Dieser Export wird noch erstellt',
  'account.exportDownloaded': 'Dieser Export wurde bereits heruntergeladen; starte einen neuen',
  'account.exportFailed': 'Dieser Export ist fehlgeschlagen; starte einen neuen',
  'account.confirmRequired': 'Gib zur Bestätigung dein Passwort ein (oder den Code aus unserer Mail)',
  'account.confirmInvalid': 'Das Passwort oder der Code ist nicht richtig',
  'account.deletionHasPassword': 'Dieses Konto hat ein Passwort: Bestätige damit statt mit einem Code',
  'account.soleTeamAdmin':
    'Du bist der einzige Admin von {teams}. Mach zuerst ein anderes Mitglied zum Admin oder lösche das Team.',
  'account.lastGlobalAdmin':
    'Du bist der letzte globale Admin dieser Installation. Mach zuerst jemand anderen zum globalen Admin.',
  'account.deletedUser': 'Gelöschter Benutzer',
  'account.mail.codeSubject': 'Dein Code zum Löschen deines Promptfolio-Kontos',
  'account.mail.codeBody': 'Jemand (hoffentlich du) möchte dein Promptfolio-Konto löschen. Dein Code:',
  'account.mail.codeValid':
    'Der Code ist 10 Minuten gültig. Wenn du ihn nicht angefordert hast, ignoriere diese Mail: Ohne ihn geschieht nichts.',
  'account.mail.deletedSubject': 'Dein Promptfolio-Konto wurde gelöscht',
  'account.mail.deletedBody':
    'Dein Promptfolio-Konto und deine persönlichen Prompts, Unterhaltungen, Sitzungen und Schlüssel wurden gelöscht. Was du mit einem Team geteilt hast, bleibt beim Team, als von einem gelöschten Benutzer.',
  'account.mail.deletedOutro': 'Wenn du das nicht warst, antworte sofort auf diese Mail.',
  'teams.deleteConfirmMismatch': 'Gib zur Bestätigung den Namen des Teams genau ein',
  'teams.mail.deletedSubject': 'Ein Team, in dem du Mitglied warst, wurde gelöscht',
  'teams.mail.deletedBody':
    'Ein Team-Admin hat dieses Team mit seinen Prompts, Unterhaltungen und Einladungen gelöscht:',
  'teams.mail.deletedBy': 'Gelöscht von',
}
