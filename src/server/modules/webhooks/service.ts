import { randomBytes } from 'node:crypto'
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { createWebhookBody, listDeliveriesQuery } from '../../../domain/api/webhooks.ts'
import type { AuditAction } from '../../../domain/audit.ts'
import type { Actor } from '../../../domain/auth.ts'
import type { Page } from '../../../domain/cursor.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Space } from '../../../domain/spaces.ts'
import { planSubjectOfSpace } from '../../../domain/spaces.ts'
import {
  type CreatedWebhook,
  type updateWebhookInput,
  WEBHOOK_ENDPOINTS_PER_SPACE,
  WEBHOOK_MANUAL_SENDS_PER_MINUTE,
  WEBHOOK_ROTATION_OVERLAP_HOURS,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookSecret,
} from '../../../domain/webhooks.ts'
import { mailAccessCreated } from '../../auth/access-notices.ts'
import { recordAudit } from '../../core/audit.ts'
import { eventActor, eventBody, newEventId, WEBHOOK_CHANNEL } from '../../core/events.ts'
import { assertPublicTarget } from '../../core/outbound-address.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import { authorizeTeam } from '../../core/team-access.ts'
import type { Db, Tx } from '../../db/client.ts'
import { cursorTimestamp, pageCondition, toPage } from '../../db/queries.ts'
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts'
import { consumeRateLimit } from '../../rate-limit.ts'

export interface WebhookDeps {
  db: Db
  plans: PlanGate
  /** WEBHOOK_ALLOW_PRIVATE: targets on private addresses are accepted (development, tests). */
  allowPrivate: boolean
  /** The public origin, for the link in a new endpoint's notice mail. */
  appUrl: string
  /** Scales the limit on test events and redeliveries (RATE_LIMIT_MULTIPLIER). */
  rateLimitMultiplier: number
}

type EndpointRow = typeof webhookEndpoints.$inferSelect
export type EndpointChange =
  | 'created'
  | 'updated'
  | 'deleted'
  | 'secret_revealed'
  | 'secret_rotated'
  | 'test_sent'
  | 'redelivered'

const auditActionOf: Record<EndpointChange, AuditAction> = {
  created: 'webhook.endpoint.created',
  deleted: 'webhook.endpoint.deleted',
  updated: 'webhook.endpoint.changed',
  secret_revealed: 'webhook.endpoint.changed',
  secret_rotated: 'webhook.endpoint.changed',
  test_sent: 'webhook.endpoint.changed',
  redelivered: 'webhook.endpoint.changed',
}

/**
 * Every change to an endpoint (and every reveal of its secret) passes here, in the transaction
 * that makes it, after it was authorized: it is written to the audit log (never with the secret).
 */
async function endpointChanged(
  tx: Tx,
  actor: Actor,
  endpoint: Pick<EndpointRow, 'id' | 'url' | 'teamId' | 'ownerUserId'>,
  change: EndpointChange,
): Promise<void> {
  await recordAudit(tx, actor, {
    action: auditActionOf[change],
    objectType: 'webhook_endpoint',
    objectId: endpoint.id,
    teamId: endpoint.teamId,
    after: { change, url: endpoint.url },
  })
}

export const newSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`

const notFound = () => new AppError('not_found', 'webhooks.notFound')

/** The space a caller names: their own (no team), or a team they administer. */
async function spaceFor(db: Db | Tx, actor: Actor, teamId: string | null): Promise<Space> {
  if (!teamId) return { kind: 'personal', userId: actor.id }
  await authorizeTeam(db, actor, teamId, 'manage_team')
  return { kind: 'team', teamId }
}

const ofSpace = (space: Space) =>
  space.kind === 'personal'
    ? eq(webhookEndpoints.ownerUserId, space.userId)
    : eq(webhookEndpoints.teamId, space.teamId)

const spaceOfRow = (row: EndpointRow): Space =>
  row.teamId ? { kind: 'team', teamId: row.teamId } : { kind: 'personal', userId: row.ownerUserId! }

/** The endpoint, row-locked in `tx` when asked, if the actor manages its space; else 404 / 403. */
async function loadEndpoint(db: Db | Tx, actor: Actor, id: string, lock = false): Promise<EndpointRow> {
  const query = db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id))
  const [row] = await (lock ? query.for('update') : query)
  if (!row) throw notFound()
  if (row.teamId) {
    await authorizeTeam(db, actor, row.teamId, 'manage_team').catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'not_found' ? notFound() : error
    })
  } else if (row.ownerUserId !== actor.id) {
    throw notFound()
  }
  return row
}

/** Runs `change` on the endpoint in one transaction: loaded, locked, authorized, recorded. */
async function withEndpoint<T>(
  db: Db,
  actor: Actor,
  id: string,
  change: EndpointChange,
  fn: (tx: Tx, row: EndpointRow) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const row = await loadEndpoint(tx, actor, id, true)
    const result = await fn(tx, row)
    await endpointChanged(tx, actor, row, change)
    return result
  })
}

export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    teamId: row.teamId,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    disabledReason: row.disabledReason ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

async function requireWebhooks(plans: PlanGate, tx: Tx, space: Space) {
  await plans.require(tx, planSubjectOfSpace(space), 'webhooks')
}

export async function listWebhooks(
  db: Db,
  actor: Actor,
  teamId: string | null,
): Promise<Page<WebhookEndpoint>> {
  const space = await spaceFor(db, actor, teamId)
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(ofSpace(space))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
  return { items: rows.map(toEndpoint), nextCursor: null }
}

export async function createWebhook(
  { db, plans, allowPrivate, appUrl }: WebhookDeps,
  actor: Actor,
  input: z.output<typeof createWebhookBody>,
): Promise<CreatedWebhook> {
  await spaceFor(db, actor, input.teamId)
  await assertPublicTarget(input.url, allowPrivate)
  const secret = newSecret()
  const row = await db.transaction(async (tx) => {
    const space = await spaceFor(tx, actor, input.teamId)
    await requireWebhooks(plans, tx, space)
    // Creates in one space take turns, so the count below stays true.
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${space.kind}:${input.teamId ?? actor.id}`}))`,
    )
    const [existing] = await tx.select({ n: count() }).from(webhookEndpoints).where(ofSpace(space))
    if ((existing?.n ?? 0) >= WEBHOOK_ENDPOINTS_PER_SPACE) {
      throw new AppError('conflict', 'webhooks.tooMany', { params: { max: WEBHOOK_ENDPOINTS_PER_SPACE } })
    }
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        ownerUserId: space.kind === 'personal' ? space.userId : null,
        teamId: space.kind === 'team' ? space.teamId : null,
        url: input.url,
        description: input.description,
        events: input.events,
        enabled: input.enabled,
        secret,
        createdByUserId: actor.id,
      })
      .returning()
    await endpointChanged(tx, actor, created!, 'created')
    await mailAccessCreated(tx, appUrl, { kind: 'webhook', label: input.url, teamId: created!.teamId, actor })
    return created!
  })
  return { ...toEndpoint(row), secret }
}

export async function updateWebhook(
  { db, plans, allowPrivate }: WebhookDeps,
  actor: Actor,
  id: string,
  input: z.output<typeof updateWebhookInput>,
): Promise<WebhookEndpoint> {
  await loadEndpoint(db, actor, id)
  if (input.url !== undefined) await assertPublicTarget(input.url, allowPrivate)
  const row = await withEndpoint(db, actor, id, 'updated', async (tx, current) => {
    // Turning deliveries on again needs a plan with webhooks; pausing never does.
    if (input.enabled && !current.enabled) await requireWebhooks(plans, tx, spaceOfRow(current))
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        ...(input.url !== undefined && { url: input.url }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.events !== undefined && { events: input.events }),
        ...(input.enabled !== undefined && { enabled: input.enabled }),
        ...(input.enabled && { disabledReason: null, failingSince: null }),
        updatedAt: sql`now()`,
      })
      .where(eq(webhookEndpoints.id, id))
      .returning()
    return updated!
  })
  return toEndpoint(row)
}

export async function deleteWebhook(db: Db, actor: Actor, id: string): Promise<void> {
  await withEndpoint(db, actor, id, 'deleted', async (tx) => {
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id))
  })
}

const secretOf = (row: EndpointRow): WebhookSecret => {
  const overlapping = row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date()
  return {
    secret: row.secret,
    previousSecret: overlapping ? row.previousSecret : null,
    previousSecretExpiresAt: overlapping ? row.previousSecretExpiresAt!.toISOString() : null,
  }
}

export async function revealWebhookSecret(db: Db, actor: Actor, id: string): Promise<WebhookSecret> {
  return withEndpoint(db, actor, id, 'secret_revealed', async (_tx, row) => secretOf(row))
}

/** A new secret; the current one becomes the previous one and signs along for 24 hours. */
export async function rotateWebhookSecret(db: Db, actor: Actor, id: string): Promise<WebhookSecret> {
  return withEndpoint(db, actor, id, 'secret_rotated', async (tx, row) => {
    const [rotated] = await tx
      .update(webhookEndpoints)
      .set({
        secret: newSecret(),
        previousSecret: row.secret,
        previousSecretExpiresAt: sql`now() + make_interval(hours => ${WEBHOOK_ROTATION_OVERLAP_HOURS})`,
        updatedAt: sql`now()`,
      })
      .where(eq(webhookEndpoints.id, id))
      .returning()
    return secretOf(rotated!)
  })
}

/** Queues one delivery to one endpoint (a test event, a redelivery) and wakes the workers. */
async function queueDelivery(
  tx: Tx,
  endpoint: EndpointRow,
  event: { eventId: string; eventType: string; payload: string },
): Promise<WebhookDelivery> {
  if (!endpoint.enabled) throw new AppError('conflict', 'webhooks.disabled')
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({ endpointId: endpoint.id, ...event })
    .returning({ id: webhookDeliveries.id })
  await tx.execute(sql`SELECT pg_notify(${WEBHOOK_CHANNEL}, '')`)
  const [delivery] = await deliveriesOf(tx, endpoint.id, { ids: [row!.id] })
  return delivery!
}

/**
 * Test events and redeliveries are sent on demand, so they are limited per endpoint. Counted in
 * the sending transaction after authorization: a stranger cannot use up the owner's allowance, and
 * a send refused for any reason (this one included) rolls its count back.
 */
async function limitManualSends(tx: Tx, deps: WebhookDeps, endpoint: EndpointRow): Promise<void> {
  const result = await consumeRateLimit(tx, `webhook-manual:${endpoint.id}`, {
    window: 60,
    max: WEBHOOK_MANUAL_SENDS_PER_MINUTE * deps.rateLimitMultiplier,
  })
  if (!result.allowed) {
    const retryAfter = result.retryAfter ?? 60
    throw new AppError('rate_limited', 'webhooks.tooManyManualSends', {
      retryAfter,
      params: { seconds: retryAfter, max: WEBHOOK_MANUAL_SENDS_PER_MINUTE * deps.rateLimitMultiplier },
    })
  }
}

export async function sendTestEvent(deps: WebhookDeps, actor: Actor, id: string): Promise<WebhookDelivery> {
  const { db, plans } = deps
  return withEndpoint(db, actor, id, 'test_sent', async (tx, endpoint) => {
    await requireWebhooks(plans, tx, spaceOfRow(endpoint))
    await limitManualSends(tx, deps, endpoint)
    const eventId = newEventId()
    const payload = eventBody(eventId, spaceOfRow(endpoint), {
      type: WEBHOOK_TEST_EVENT,
      actor: eventActor(actor),
      data: { endpoint: { id: endpoint.id, url: endpoint.url } },
    })
    return queueDelivery(tx, endpoint, { eventId, eventType: WEBHOOK_TEST_EVENT, payload })
  })
}

/** Sends a delivery's event again: a new delivery with the same event id and body. */
export async function redeliver(
  deps: WebhookDeps,
  actor: Actor,
  id: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const { db, plans } = deps
  return withEndpoint(db, actor, id, 'redelivered', async (tx, endpoint) => {
    const [original] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, id)))
    if (!original) throw new AppError('not_found', 'webhooks.deliveryNotFound')
    await requireWebhooks(plans, tx, spaceOfRow(endpoint))
    await limitManualSends(tx, deps, endpoint)
    return queueDelivery(tx, endpoint, {
      eventId: original.eventId,
      eventType: original.eventType,
      payload: original.payload,
    })
  })
}

/** Attempts kept per delivery in the log's answer. */
const ATTEMPTS_SHOWN = 10

async function deliveriesOf(
  db: Db | Tx,
  endpointId: string,
  options: { ids?: string[]; cursor?: string; limit?: number },
) {
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      eventType: webhookDeliveries.eventType,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      createdAt: webhookDeliveries.createdAt,
      cursorAt: cursorTimestamp(webhookDeliveries.createdAt),
    })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        options.ids ? inArray(webhookDeliveries.id, options.ids) : undefined,
        pageCondition(
          { column: webhookDeliveries.createdAt, kind: 'timestamp' },
          webhookDeliveries.id,
          options.cursor,
        ),
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit((options.limit ?? 1) + 1)
  const attempts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              rows.map((row) => row.id),
            ),
          )
          .orderBy(desc(webhookAttempts.attempt))
  const page = toPage(
    rows,
    options.limit ?? 1,
    (row) => row.cursorAt,
    (row): WebhookDelivery => ({
      id: row.id,
      eventId: row.eventId,
      eventType: row.eventType,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
      log: attempts
        .filter((attempt) => attempt.deliveryId === row.id)
        .slice(0, ATTEMPTS_SHOWN)
        .map((attempt) => ({
          attempt: attempt.attempt,
          startedAt: attempt.startedAt.toISOString(),
          statusCode: attempt.statusCode,
          durationMs: attempt.durationMs,
          error: attempt.error,
          responseExcerpt: attempt.responseExcerpt,
        })),
    }),
  )
  return Object.assign(page.items, { nextCursor: page.nextCursor })
}

export async function listDeliveries(
  db: Db,
  actor: Actor,
  id: string,
  query: z.output<typeof listDeliveriesQuery>,
): Promise<Page<WebhookDelivery>> {
  await loadEndpoint(db, actor, id)
  const items = await deliveriesOf(db, id, { cursor: query.cursor, limit: query.limit })
  return { items: [...items], nextCursor: items.nextCursor }
}
