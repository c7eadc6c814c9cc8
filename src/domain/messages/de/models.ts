import type { modelsEn } from '../en/models.ts'

/** Modellanbieter und Prompt-Läufe. */
export const modelsDe: Record<keyof typeof modelsEn, string> = {
  'models.providerNotFound': 'Modellanbieter nicht gefunden',
  'models.kindInvalid': 'Wähle OpenAI-kompatibel oder Anthropic',
  'models.nameRequired': 'Name ist erforderlich',
  'models.nameTooLong': 'Der Name darf höchstens 100 Zeichen lang sein',
  'models.baseUrlInvalid': 'Gib eine gültige http://- oder https://-URL ein',
  'models.baseUrlPrivate':
    'Diese URL zeigt auf eine private, Loopback- oder Link-Local-Adresse. Lokale Modelle brauchen MODELS_ALLOW_PRIVATE=1 auf dem Server.',
  'models.baseUrlUnresolvable': 'Der Hostname dieser URL konnte nicht aufgelöst werden',
  'models.apiKeyRequired': 'API-Schlüssel ist erforderlich',
  'models.apiKeyTooLong': 'Der API-Schlüssel darf höchstens 1000 Zeichen lang sein',
  'models.modelInvalid': 'Modellnamen sind 1 bis 200 Zeichen lang',
  'models.tooManyModels': 'Ein Anbieter kann höchstens 200 Modelle auflisten',
  'models.defaultNotListed': 'Das Standardmodell muss eines der aufgelisteten Modelle sein',
  'models.tooManyProviders': 'Ein Bereich kann höchstens {max} Modellanbieter haben',
  'models.modelRequired':
    'Wähle ein Modell: Die Konfiguration der Version nennt keins und der Anbieter hat kein Standardmodell',
  'models.temperatureInvalid': 'Die Temperatur muss zwischen 0 und 2 liegen',
  'models.maxTokensInvalid': 'Max. Tokens muss eine ganze Zahl von 1 bis 200.000 sein',
  'models.topPInvalid': 'Top P muss zwischen 0 und 1 liegen',
  'models.tooManyRuns': 'Du hast zu viele Läufe gestartet. Bitte warte {seconds} Sekunden.',
  'models.tooManySpaceRuns':
    'Im Bereich dieses Anbieters wurden in der letzten Minute zu viele Läufe gestartet. Bitte warte {seconds} Sekunden.',
  'models.keyUnreadable':
    'Der gespeicherte Schlüssel dieses Anbieters ist nicht lesbar (das AUTH_SECRET des Servers hat sich geändert). Gib den Schlüssel erneut ein.',
  'models.upstreamUnauthorized':
    'Der Anbieter hat den API-Schlüssel abgelehnt (HTTP {status}). Prüfe den Schlüssel unter Einstellungen → Modelle.',
  'models.upstreamRateLimited':
    'Der Anbieter begrenzt die Anfragen (HTTP 429). Versuche es in {seconds} Sekunden erneut.',
  'models.upstreamRateLimitedNoTime':
    'Der Anbieter begrenzt die Anfragen (HTTP 429). Versuche es später erneut.',
  'models.upstreamModelNotFound': 'Der Anbieter kennt das Modell „{model}“ nicht.',
  'models.upstreamRejected': 'Der Anbieter hat die Anfrage abgelehnt (HTTP {status}): {detail}',
  'models.upstreamFailed':
    'Beim Anbieter ist ein Fehler aufgetreten (HTTP {status}). Versuche es später erneut.',
  'models.upstreamTimeout': 'Der Anbieter hat nicht innerhalb von {seconds} Sekunden geantwortet.',
  'models.upstreamUnreachable': 'Der Anbieter war unter seiner Basis-URL nicht erreichbar.',
  'models.upstreamInvalid': 'Die Antwort des Anbieters konnte nicht gelesen werden.',
  'models.placeholderInvalid':
    'Die Nachrichten eines Platzhalters brauchen eine Rolle (höchstens 50 Zeichen) und einen Inhalt',
  'models.placeholderTooLong': 'Eine Platzhalter-Nachricht darf höchstens 50.000 Zeichen lang sein',
  'models.tooManyPlaceholderMessages': 'Die Platzhalter dürfen zusammen höchstens 100 Nachrichten enthalten',
  'models.modelsNotListed': 'Dieser Anbieter listet seine Modelle nicht auf; gib sie stattdessen ein.',
  'models.providerRequired': 'Wähle einen Modellanbieter',
  'models.replyCancelled': 'Die Antwort wurde angehalten; nichts wurde gespeichert',
  'models.upstreamEmpty': 'Das Modell hat ohne Text geantwortet.',
}
