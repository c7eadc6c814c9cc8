import { z } from 'zod'

/**
 * Webhooks: endpoints of a space (a user's personal space or a team's) that receive
 * signed events (Standard Webhooks) about its prompts and conversations.
 */
export const webhookEventTypes = [
  'prompt.created',
  'prompt.version.created',
  'prompt.label.moved',
  'prompt.updated',
  'prompt.deleted',
  'conversation.created',
  'conversation.message.created',
] as const
export type WebhookEventType = (typeof webhookEventTypes)[number]
/** What 'Send test event' sends; no endpoint subscribes to it, it goes to the one endpoint tested. */
export const WEBHOOK_TEST_EVENT = 'webhook.test'

export const WEBHOOK_SECRET_PREFIX = 'whsec_'
/** How long the previous secret still signs after a rotation. */
export const WEBHOOK_ROTATION_OVERLAP_HOURS = 24
/** An answer slower than this is a failed attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000
/** Endpoints one space may hold. */
export const WEBHOOK_ENDPOINTS_PER_SPACE = 20
/** Test events and redeliveries one endpoint may be sent per minute (together). */
export const WEBHOOK_MANUAL_SENDS_PER_MINUTE = 10
/** Characters of an answer's body kept in the delivery log. */
export const WEBHOOK_RESPONSE_EXCERPT = 500
/** An endpoint whose deliveries have failed, without a success, for this long is disabled. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 5

/**
 * Seconds to wait after the n-th failed attempt (n from 1): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h — eight attempts over about 28 hours (the Standard Webhooks / Svix schedule). Null: no more.
 */
const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000]
export function webhookRetryDelaySeconds(failedAttempts: number): number | null {
  return RETRY_DELAYS_SECONDS[failedAttempts - 1] ?? null
}

const urlField = z
  .string({ error: 'webhooks.urlInvalid' })
  .trim()
  .min(1, 'webhooks.urlRequired')
  .max(2000, 'webhooks.urlTooLong')
  .pipe(z.url({ protocol: /^https?$/, error: 'webhooks.urlInvalid' }))

const eventsField = z
  .array(z.enum(webhookEventTypes, { error: 'webhooks.eventInvalid' }), { error: 'webhooks.eventsRequired' })
  .min(1, 'webhooks.eventsRequired')
  .transform((events) => [...new Set(events)])

const descriptionField = z
  .string({ error: 'webhooks.descriptionTooLong' })
  .trim()
  .max(500, 'webhooks.descriptionTooLong')

export const createWebhookInput = z.object({
  url: urlField,
  description: descriptionField.default(''),
  events: eventsField,
  enabled: z.boolean().default(true),
})
export type CreateWebhookInput = z.input<typeof createWebhookInput>

export const updateWebhookInput = z.object({
  url: urlField.optional(),
  description: descriptionField.optional(),
  events: eventsField.optional(),
  enabled: z.boolean().optional(),
})
export type UpdateWebhookInput = z.input<typeof updateWebhookInput>

export const webhookEndpointSchema = z.object({
  id: z.uuid(),
  teamId: z.uuid().nullable(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  enabled: z.boolean(),
  /** 'failing': the system turned it off after days of failed deliveries. */
  disabledReason: z.enum(['failing']).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>

/** The answer of a create: the endpoint and its signing secret. */
export const createdWebhookSchema = webhookEndpointSchema.extend({ secret: z.string() })
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>

export const webhookSecretSchema = z.object({
  secret: z.string(),
  /** After a rotation: the previous secret, which also signs until `previousSecretExpiresAt`. */
  previousSecret: z.string().nullable(),
  previousSecretExpiresAt: z.string().nullable(),
})
export type WebhookSecret = z.infer<typeof webhookSecretSchema>

export const webhookAttemptSchema = z.object({
  attempt: z.number().int(),
  startedAt: z.string(),
  /** The answer's status; null when none came (timeout, refused connection, refused address). */
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  responseExcerpt: z.string().nullable(),
})

export const webhookDeliverySchema = z.object({
  id: z.uuid(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  /** When the next attempt is due (pending deliveries). */
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  /** Its attempts, the latest first. */
  log: z.array(webhookAttemptSchema),
})
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>
