/** Webhooks. */
export const webhooksEn = {
  'webhooks.notFound': 'Webhook endpoint not found',
  'webhooks.deliveryNotFound': 'Delivery not found',
  'webhooks.urlRequired': 'URL is required',
  'webhooks.urlTooLong': 'URL must be at most 2000 characters',
  'webhooks.urlInvalid': 'Enter a valid http:// or https:// URL',
  'webhooks.urlPrivate':
    'This URL points to a private, loopback or link-local address; webhooks are only sent to public addresses',
  'webhooks.urlUnresolvable': 'This URL’s host name could not be resolved',
  'webhooks.eventsRequired': 'Choose at least one event',
  'webhooks.eventInvalid': 'Unknown event type',
  'webhooks.descriptionTooLong': 'Description must be at most 500 characters',
  'webhooks.tooMany': 'A space may have at most {max} webhook endpoints',
  'webhooks.disabled': 'This endpoint is paused; enable it first',
  'webhooks.tooManyManualSends':
    'This endpoint was sent {max} test events and redeliveries in the last minute. Please wait {seconds} seconds before sending again.',
  'webhooks.mail.disabledSubject': 'A webhook endpoint was disabled',
  'webhooks.mail.disabledBody':
    'Deliveries to this webhook endpoint have failed for {days} days, so it was disabled. Fix the receiver, then enable the endpoint again in the webhook settings.',
  'webhooks.mail.detailUrl': 'Endpoint',
  'webhooks.mail.action': 'Open webhook settings',
} as const
