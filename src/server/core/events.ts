import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Actor } from '../../domain/auth.ts'
import type { Space } from '../../domain/spaces.ts'
import type { WEBHOOK_TEST_EVENT, WebhookEventType } from '../../domain/webhooks.ts'
import type { Db, Tx } from '../db/client.ts'
import { webhookDeliveries, webhookEndpoints } from '../db/schema/index.ts'
import type { Principal } from './principal.ts'

/** The NOTIFY channel that wakes the webhook worker of every app process when a delivery is queued. */
export const WEBHOOK_CHANNEL = 'webhook_deliveries'

/** Who caused an event: a signed-in user, or an API key (acting for `userId`). */
export type EventActor =
  | { type: 'user'; userId: string; email: string }
  | { type: 'api_key'; apiKeyId: string; userId: string | null }

/** A webhook event's actor, from who acted. */
export function eventActor(cause: Actor | Principal): EventActor {
  if (!('kind' in cause)) return { type: 'user', userId: cause.id, email: cause.email }
  return cause.kind === 'user'
    ? { type: 'user', userId: cause.actor.id, email: cause.actor.email }
    : { type: 'api_key', apiKeyId: cause.keyId, userId: cause.userId }
}

export interface WebhookEvent {
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT
  actor: EventActor | null
  /** What the receiver needs to act without calling back (see the builders below). */
  data: Record<string, unknown>
}

export const newEventId = () => `evt_${randomUUID().replaceAll('-', '')}`

const spacePayload = (space: Space) =>
  space.kind === 'team' ? { type: 'team', teamId: space.teamId } : { type: 'personal', userId: space.userId }

/** The JSON body an endpoint receives, exactly as it is signed and sent. */
export function eventBody(eventId: string, space: Space, event: WebhookEvent, at = new Date()): string {
  return JSON.stringify({
    id: eventId,
    type: event.type,
    timestamp: at.toISOString(),
    space: spacePayload(space),
    actor: event.actor,
    data: event.data,
  })
}

const ofSpace = (space: Space) =>
  space.kind === 'team' ? sql`team_id = ${space.teamId}` : sql`owner_user_id = ${space.userId}`

/**
 * Queues `event` for every enabled endpoint of `space` that subscribes to it: ONE statement in the
 * caller's transaction (an INSERT … SELECT, plus a NOTIFY when it queued anything), so the event
 * exists exactly when the change commits and costs the write one insert, never a delivery. The
 * worker (delivery.ts) sends it after the commit. Returns the event's id.
 */
export async function enqueueEvent(tx: Db | Tx, space: Space, event: WebhookEvent): Promise<string> {
  const eventId = newEventId()
  const body = eventBody(eventId, space, event)
  await tx.execute(sql`WITH queued AS (
      INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, payload)
      SELECT id, ${eventId}, ${event.type}, ${body} FROM webhook_endpoints
      WHERE ${ofSpace(space)} AND enabled AND ${event.type} = ANY (events)
      RETURNING 1)
    SELECT pg_notify(${WEBHOOK_CHANNEL}, '') FROM (SELECT 1 FROM queued LIMIT 1) AS any_queued`)
  return eventId
}

/** Deliveries per INSERT when queuing many events: well under PostgreSQL's 65,535 parameters. */
const DELIVERIES_PER_STATEMENT = 1000

/**
 * `enqueueEvent` for many events of one space at once, in order (an import's prompts): the
 * space's enabled endpoints read once, every delivery they subscribe to inserted in multi-row
 * statements, and one NOTIFY when anything was queued. The same rows as one `enqueueEvent` each.
 */
export async function enqueueEvents(
  tx: Db | Tx,
  space: Space,
  events: readonly WebhookEvent[],
): Promise<void> {
  if (events.length === 0) return
  if (events.length === 1) {
    await enqueueEvent(tx, space, events[0]!)
    return
  }
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(sql`${ofSpace(space)} AND enabled`)
  if (endpoints.length === 0) return
  const rows: (typeof webhookDeliveries.$inferInsert)[] = []
  for (const event of events) {
    const subscribed = endpoints.filter((endpoint) => endpoint.events.includes(event.type))
    if (subscribed.length === 0) continue
    const eventId = newEventId()
    const payload = eventBody(eventId, space, event)
    for (const endpoint of subscribed) {
      rows.push({ endpointId: endpoint.id, eventId, eventType: event.type, payload })
    }
  }
  if (rows.length === 0) return
  for (let at = 0; at < rows.length; at += DELIVERIES_PER_STATEMENT) {
    await tx.insert(webhookDeliveries).values(rows.slice(at, at + DELIVERIES_PER_STATEMENT))
  }
  await tx.execute(sql`SELECT pg_notify(${WEBHOOK_CHANNEL}, '')`)
}

// The payloads' parts, the same in every event that names the object.

export function promptData(prompt: {
  id: string
  name: string
  title: string
  type: string
  description?: string | null
  tags: string[]
  visibility: string
  teamId: string | null
}) {
  return {
    id: prompt.id,
    name: prompt.name,
    title: prompt.title,
    type: prompt.type,
    description: prompt.description ?? null,
    tags: prompt.tags,
    visibility: prompt.visibility,
    teamId: prompt.teamId,
  }
}

export function versionData(version: {
  id: string
  versionNumber: number
  body: string
  changelog: string | null
  labels: string[]
  config?: Record<string, unknown>
}) {
  return {
    id: version.id,
    version: version.versionNumber,
    body: version.body,
    changelog: version.changelog,
    labels: version.labels,
    ...(version.config && { config: version.config }),
  }
}

export const conversationSpace = (row: { teamId: string | null; ownerUserId: string }): Space =>
  row.teamId ? { kind: 'team', teamId: row.teamId } : { kind: 'personal', userId: row.ownerUserId }
