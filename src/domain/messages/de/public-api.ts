import type { publicApiEn } from '../en/public-api.ts'

/** Prompt-Namen, -Typen und -Labels sowie API-Schlüssel. */
export const publicApiDe: Record<keyof typeof publicApiEn, string> = {
  'prompts.nameRequired': 'Name ist erforderlich',
  'prompts.nameTooLong': 'Der Name darf höchstens 255 Zeichen lang sein',
  'prompts.nameInvalid':
    'Der Name darf weder „|“ noch HTML enthalten, und Ordner (a/b) dürfen nicht leer sein',
  'prompts.nameReserved': 'Dieser Name ist reserviert; bitte wähle einen anderen',
  'prompts.nameTaken': 'In diesem Bereich gibt es bereits einen Prompt mit diesem Namen',
  'prompts.labelInvalid': 'Labels bestehen aus 1 bis 36 Kleinbuchstaben, Ziffern, „_“, „-“ oder „.“',
  'prompts.labelLatest': 'Das Label „latest“ wird automatisch gesetzt und kann nicht verschoben werden',
  'prompts.labelProtected': 'Nur Team-Admins dürfen das geschützte Label „{label}“ verschieben',
  'prompts.labelProtectedByKey':
    'API-Schlüssel verschieben das geschützte Label „{label}“ nie; ein Team-Admin verschiebt es in der App',
  'prompts.deleteProtected':
    'Nur Team-Admins dürfen einen Prompt oder eine Version mit dem geschützten Label „{label}“ löschen',
  'prompts.deleteProtectedByKey':
    'API-Schlüssel löschen nie einen Prompt oder eine Version mit dem geschützten Label „{label}“',
  'prompts.labelNotSet': 'Das Label „{label}“ ist bei diesem Prompt nicht gesetzt',
  'prompts.labelEventNotFound': 'Label-Änderung nicht gefunden',
  'prompts.labelRevertUnavailable':
    'Diese Änderung kann nicht rückgängig gemacht werden: Die frühere Version existiert nicht mehr',
  'prompts.chatMessageInvalid':
    'Ein Chat-Prompt ist eine Liste von Nachrichten mit Rolle und Inhalt oder von Platzhaltern',
  'prompts.placeholderInvalid':
    'Platzhalternamen beginnen mit einem Buchstaben und bestehen aus Buchstaben, Ziffern und „_“',
  'prompts.placeholderClash': '„{name}“ kann nicht zugleich Variable und Platzhalter sein',
  'prompts.configInvalid': 'Die Konfiguration muss ein JSON-Objekt sein',
  'prompts.configTooDeep': 'Die Konfiguration darf höchstens 20 Ebenen tief verschachtelt sein',
  'prompts.typeInvalid': 'Der Typ muss Text oder Chat sein',
  'prompts.typeChange':
    'Frühere Versionen haben einen anderen Prompt-Typ; der Typ eines Prompts kann sich nicht ändern',
  'prompts.importUnknownFormat':
    'Diese Datei ist kein Promptfolio-Export, kein Langfuse-Export und keine Sammlung von Markdown-Prompts',
  'prompts.importEmpty': 'Diese Datei enthält keine Prompts',
  'prompts.importTooMany': 'Ein Import nimmt höchstens {max} Prompts auf',
  'prompts.importInvalid': 'Prompt {index} in der Datei ist ungültig ({field}): {problem}',
  'prompts.importDuplicate': 'Die Datei enthält den Prompt „{name}“ zweimal',
  'prompts.importConflicts':
    '{count} Prompts können nicht importiert werden (anderer Typ oder nicht von dir bearbeitbar); es wurde nichts importiert. Die Vorschau zeigt, welche.',
  'prompts.teamAdminRequired': 'Nur Team-Admins dürfen geschützte Labels ändern',
  'apiKeys.nameRequired': 'Name ist erforderlich',
  'apiKeys.nameTooLong': 'Der Name darf höchstens 100 Zeichen lang sein',
  'apiKeys.scopeInvalid': 'Der Bereich muss „Lesen“ oder „Lesen und Schreiben“ sein',
  'apiKeys.notFound': 'API-Schlüssel nicht gefunden',
  'apiKeys.teamAdminRequired': 'Nur Team-Admins verwalten die API-Schlüssel des Teams',
  'apiKeys.tooMany': 'Dieser Bereich hat bereits {max} API-Schlüssel; widerrufe zuerst einen',
  'apiKeys.invalid': 'Ungültiger API-Schlüssel',
  'apiKeys.readOnly': 'Dieser API-Schlüssel darf nur lesen',
  'apiKeys.notForThisRoute': 'API-Schlüssel dürfen nur die Prompt-API verwenden',
  'apiKeys.personalSpaceOnly':
    'Ein persönlicher API-Schlüssel erreicht nur deine persönlichen Prompts; die Prompts eines Teams brauchen einen Schlüssel dieses Teams',
  'apiKeys.apiAccessLocked': 'API-Zugriff ist in diesem Tarif gesperrt',
}
