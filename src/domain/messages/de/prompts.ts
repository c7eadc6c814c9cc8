import type { promptsEn } from '../en/prompts.ts'

export const promptsDe: Record<keyof typeof promptsEn, string> = {
  'prompts.titleRequired': 'Titel ist erforderlich',
  'prompts.titleTooLong': 'Der Titel darf höchstens 200 Zeichen haben',
  'prompts.descriptionTooLong': 'Die Beschreibung darf höchstens 2.000 Zeichen haben',
  'prompts.contentRequired': 'Prompt-Inhalt ist erforderlich',
  'prompts.contentTooLong': 'Der Prompt-Inhalt darf höchstens 50.000 Zeichen haben',
  'prompts.changelogTooLong': 'Die Änderungsnotiz darf höchstens 500 Zeichen haben',
  'prompts.tagsInvalid': 'Tags müssen eine Liste von Wörtern sein',
  'prompts.tagTooLong': 'Ein Tag darf höchstens 50 Zeichen haben',
  'prompts.tooManyTags': 'Ein Prompt kann höchstens 20 Tags haben',
  'prompts.visibilityInvalid': 'Die Sichtbarkeit muss Privat oder Team sein',
  'prompts.teamRequired': 'Wähle ein Team, mit dem dieser Prompt geteilt wird',
  'prompts.notTeamMember': 'Kein Mitglied dieses Teams',
  'prompts.notFound': 'Prompt nicht gefunden',
  'prompts.versionNotFound': 'Version nicht gefunden',
  'prompts.alreadyExists': 'Prompt existiert bereits',
  'prompts.referenced': 'Der Prompt kann nicht gelöscht werden, weil andere Datensätze auf ihn verweisen.',
  'prompts.editForbidden': 'Du hast keine Berechtigung, diesen Prompt zu bearbeiten',
  'prompts.sharingForbidden': 'Nur der Eigentümer des Prompts kann ändern, mit wem er geteilt wird',
  'prompts.deleteForbidden': 'Du hast keine Berechtigung, diesen Prompt zu löschen.',
  'prompts.tooManyVersions':
    'Dieser Prompt hat seine Grenze von {max} Versionen erreicht. Speichere deinen Text stattdessen als neuen Prompt.',
  'prompts.staleVersion':
    'Dieser Prompt wurde geändert, während du ihn bearbeitet hast: Jetzt ist Version {version} aktuell. Deine Änderungen sind noch im Editor; prüfe sie und speichere erneut.',
  'prompts.referenceMissing':
    'Dieser Text bindet {reference} ein, das es im Bereich dieses Prompts nicht gibt.',
  'prompts.referenceNotText':
    'Dieser Text bindet {reference} ein, einen Chat-Prompt; nur Text-Prompts können eingebunden werden.',
  'prompts.referenceCycle': 'Diese Verweise würden einen Kreis bilden: {cycle}.',
  'prompts.referenceTooDeep': 'Verweise dürfen höchstens {max} Prompts tief verschachtelt sein: {chain}.',
  'prompts.referenceTooManyTags':
    '{prompt} bindet {count}-mal andere Prompts ein; ein Text darf höchstens {max} Verweise enthalten.',
  'prompts.referenceTooLarge': 'Mit aufgelösten Verweisen wäre der Text länger als {max} Zeichen: {chain}.',
  'prompts.referenceTooMany': 'Diese Verweise lesen insgesamt mehr als {max} Prompt-Versionen: {chain}.',
  'prompts.usedBy':
    'Dieser Prompt wird von anderen Prompts eingebunden und kann nicht gelöscht werden: {prompts}. Entferne zuerst die Verweise.',
  'prompts.initialChangelog': 'Erste Version',
  'prompts.updatedChangelog': 'Prompt-Inhalt aktualisiert',
}
