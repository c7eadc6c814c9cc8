import type { webhooksEn } from '../en/webhooks.ts'

/** Webhooks. */
export const webhooksDe: Record<keyof typeof webhooksEn, string> = {
  'webhooks.notFound': 'Webhook-Endpunkt nicht gefunden',
  'webhooks.deliveryNotFound': 'Zustellung nicht gefunden',
  'webhooks.urlRequired': 'URL ist erforderlich',
  'webhooks.urlTooLong': 'Die URL darf höchstens 2000 Zeichen lang sein',
  'webhooks.urlInvalid': 'Gib eine gültige http://- oder https://-URL ein',
  'webhooks.urlPrivate':
    'Diese URL zeigt auf eine private, Loopback- oder Link-Local-Adresse; Webhooks werden nur an öffentliche Adressen gesendet',
  'webhooks.urlUnresolvable': 'Der Hostname dieser URL konnte nicht aufgelöst werden',
  'webhooks.eventsRequired': 'Wähle mindestens ein Ereignis',
  'webhooks.eventInvalid': 'Unbekannter Ereignistyp',
  'webhooks.descriptionTooLong': 'Die Beschreibung darf höchstens 500 Zeichen lang sein',
  'webhooks.tooMany': 'Ein Bereich kann höchstens {max} Webhook-Endpunkte haben',
  'webhooks.disabled': 'Dieser Endpunkt ist pausiert; aktiviere ihn zuerst',
  'webhooks.tooManyManualSends':
    'An diesen Endpunkt wurden in der letzten Minute {max} Test-Ereignisse und erneute Zustellungen gesendet. Bitte warte {seconds} Sekunden, bevor du erneut sendest.',
  'webhooks.mail.disabledSubject': 'Ein Webhook-Endpunkt wurde deaktiviert',
  'webhooks.mail.disabledBody':
    'Zustellungen an diesen Webhook-Endpunkt schlagen seit {days} Tagen fehl, daher wurde er deaktiviert. Behebe den Empfänger und aktiviere den Endpunkt dann in den Webhook-Einstellungen wieder.',
  'webhooks.mail.detailUrl': 'Endpunkt',
  'webhooks.mail.action': 'Webhook-Einstellungen öffnen',
}
