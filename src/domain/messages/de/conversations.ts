import type { conversationsEn } from '../en/conversations.ts'

export const conversationsDe: Record<keyof typeof conversationsEn, string> = {
  'conversations.notFound': 'Unterhaltung nicht gefunden',
  'conversations.messageNotFound': 'Nachricht nicht gefunden',
  'conversations.attachmentNotFound': 'Anhang nicht gefunden',
  'conversations.teamNotFound': 'Team nicht gefunden oder Zugriff verweigert',
  'conversations.userMustBeAuthenticated': 'Benutzer muss angemeldet sein',
  'conversations.titleRequired': 'Titel ist erforderlich',
  'conversations.titleTooLong': 'Der Titel darf höchstens 200 Zeichen haben',
  'conversations.invalidTags': 'Tags müssen eine Liste von Wörtern sein',
  'conversations.tagTooLong': 'Ein Tag darf höchstens 50 Zeichen haben',
  'conversations.tooManyTags': 'Eine Unterhaltung kann höchstens 20 Tags haben',
  'conversations.messageRequired': 'Nachrichtentext ist erforderlich',
  'conversations.messageTooLong': 'Eine Nachricht darf höchstens 50.000 Zeichen haben',
  'conversations.invalidRole': 'Die Rolle muss user, assistant oder system sein',
  'conversations.modelTooLong': 'Der Modellname darf höchstens 100 Zeichen haben',
  'conversations.invalidTokenCount': 'Die Token-Anzahl muss eine ganze Zahl ab 0 sein',
  'conversations.invalidAttachments': 'Anhänge müssen eine Liste von Prompts sein',
  'conversations.tooManyAttachments': 'An eine Nachricht können höchstens 10 Prompts angehängt werden',
  'conversations.notesTooLong': 'Notizen dürfen höchstens 1.000 Zeichen haben',
  'conversations.nothingToUpdate': 'Nichts zu ändern',
  'conversations.invalidScope': 'Der Bereich muss owner oder team sein',
  'conversations.invalidOrder': 'Die Reihenfolge muss asc oder desc sein',
  'conversations.searchTooLong': 'Die Suche darf höchstens 200 Zeichen haben',
  'conversations.manageForbidden':
    'Nur der Eigentümer, ein Team-Admin oder ein globaler Admin kann diese Unterhaltung ändern oder löschen',
  'conversations.messageForbidden': 'Du kannst nur deine eigenen Nachrichten bearbeiten oder löschen',
  'conversations.attachForbidden': 'Du kannst Prompts nur an deine eigenen Nachrichten anhängen',
  'conversations.removeAttachmentForbidden': 'Du kannst Anhänge nur von deinen eigenen Nachrichten entfernen',
  'conversations.alreadyAttached': 'Diese Prompt-Version ist bereits an die Nachricht angehängt',
  'conversations.replyNeedsMessages':
    'Schreib zuerst eine Nachricht: Eine Antwort antwortet auf die bisherige Unterhaltung',
}
