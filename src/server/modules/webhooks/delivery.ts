import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import {
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_RESPONSE_EXCERPT,
  WEBHOOK_TIMEOUT_MS,
  webhookRetryDelaySeconds,
} from '../../../domain/webhooks.ts'
import { WEBHOOK_CHANNEL } from '../../core/events.ts'
import { BlockedAddressError, isPrivateAddress, pinnedLookup } from '../../core/outbound-address.ts'
import type { Database, Tx } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'
import { createQueueWorker, type QueueWorker } from '../../jobs/queue-worker.ts'
import type { Logger } from '../../log.ts'
import { enqueueMail } from '../../mail/outbox.ts'
import { recipientLocale } from '../../mail/recipient-locale.ts'
import { renderMail } from '../../mail/render.ts'
import { type ClaimedDelivery, claimDeliveries } from './claim.ts'

/** How often due deliveries (retries; rows queued while a NOTIFY was missed) are looked for. */
export const WEBHOOK_POLL_INTERVAL_MS = 10_000
/** Deliveries in flight at once per process; each is independent, so a slow endpoint holds one slot. */
const CONCURRENCY = 32
/**
 * Slots one space may hold at once per process: a space that floods its endpoints (or whose
 * endpoints answer slowly) leaves the other slots to the other spaces.
 */
export const WEBHOOK_SLOTS_PER_SPACE = CONCURRENCY / 4

/** What one attempt gave: an answer (any status) or an error before one came. */
export interface AttemptResult {
  statusCode: number | null
  durationMs: number
  error: string | null
  responseExcerpt: string | null
}

export const succeeded = (result: AttemptResult) =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300

/** `webhook-signature`: one `v1,<base64>` per secret that signs (two during a rotation). */
export function signatureHeader(secrets: string[], eventId: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' ')
}

/**
 * POSTs one signed body (Standard Webhooks headers), without following redirects, giving up after
 * WEBHOOK_TIMEOUT_MS. Unless `allowPrivate`, the target's addresses are checked as it connects.
 * The answer's body is kept (for the delivery log) only from a public address: with
 * `allowPrivate`, a private target's answer would otherwise show users what an internal service
 * says. `isPrivate` judges the address connected to (tests stand in for a public one).
 */
export function postWebhook(options: {
  url: string
  eventId: string
  body: string
  secrets: string[]
  allowPrivate: boolean
  userAgent: string
  isPrivate?: (address: string) => boolean
}): Promise<AttemptResult> {
  const isPrivate = options.isPrivate ?? isPrivateAddress
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  return new Promise((resolve) => {
    let settled = false
    let timer: NodeJS.Timeout | undefined
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...result, durationMs: elapsed() })
    }
    const fail = (error: unknown) =>
      finish({
        statusCode: null,
        error: error instanceof Error ? error.message || error.name : String(error),
        responseExcerpt: null,
      })
    const url = new URL(options.url)
    const host = url.hostname.replace(/^\[|\]$/g, '')
    // A literal address is never looked up, so it is checked here.
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
      fail(new BlockedAddressError(host))
      return
    }
    const at = new Date()
    const headers = {
      'content-type': 'application/json',
      'user-agent': options.userAgent,
      'webhook-id': options.eventId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatureHeader(options.secrets, options.eventId, at, options.body),
    }
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(options.body) },
      ...(!options.allowPrivate && { lookup: pinnedLookup }),
      // A fresh connection each time: an address checked for this delivery is the one used.
      agent: false,
    })
    timer = setTimeout(() => {
      request.destroy(new Error(`timed out after ${WEBHOOK_TIMEOUT_MS / 1000} s`))
    }, WEBHOOK_TIMEOUT_MS)
    request.on('error', fail)
    request.on('response', (response) => {
      let excerpt = ''
      const remote = response.socket?.remoteAddress
      const keepBody = remote !== undefined && !isPrivate(remote)
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        if (!keepBody) return
        if (excerpt.length < WEBHOOK_RESPONSE_EXCERPT) excerpt += chunk
        if (excerpt.length >= WEBHOOK_RESPONSE_EXCERPT) response.destroy()
      })
      const done = () =>
        finish({
          statusCode: response.statusCode ?? null,
          error: null,
          responseExcerpt: excerpt.slice(0, WEBHOOK_RESPONSE_EXCERPT) || null,
        })
      response.on('end', done)
      response.on('close', done)
      response.on('error', done)
    })
    request.end(options.body)
  })
}

export type WebhookDelivery = QueueWorker

/**
 * The webhook worker of one app process (jobs/queue-worker.ts: NOTIFY on commit, plus a poll).
 * Due deliveries are claimed with FOR UPDATE SKIP LOCKED and leased, so several processes share
 * the queue and each attempt is made once (at least once when a process dies mid-send). Up to
 * CONCURRENCY deliveries run at once and a round keeps claiming as slots free up, so one slow
 * endpoint never holds up the others; spaces take turns (`claimDeliveries`) and none holds more
 * than WEBHOOK_SLOTS_PER_SPACE slots, so one space's flood never holds up another space. A failed attempt is retried on the schedule of
 * `webhookRetryDelaySeconds`; an endpoint failing for WEBHOOK_DISABLE_AFTER_DAYS is disabled and its
 * owners (the user, or the team's admins) are mailed.
 */
export function createWebhookDelivery(deps: {
  database: Database
  log: Logger
  allowPrivate: boolean
  appUrl: string
  version: string
}): WebhookDelivery {
  const { database, log, allowPrivate, appUrl } = deps
  const db = database.db
  const userAgent = `Promptfolio-Webhooks/${deps.version}`
  const inFlight = new Set<Promise<void>>()
  /** Deliveries in flight per space. */
  const busy = new Map<string, number>()
  const retryTimers = new Set<NodeJS.Timeout>()

  async function send(delivery: ClaimedDelivery) {
    const result = await postWebhook({
      url: delivery.url,
      eventId: delivery.event_id,
      body: delivery.payload,
      secrets: [delivery.secret, ...(delivery.previous_secret ? [delivery.previous_secret] : [])],
      allowPrivate,
      userAgent,
    })
    if (succeeded(result)) await recordSuccess(delivery, result)
    else await db.transaction((tx) => recordFailure(tx, delivery, result))
  }

  const attemptRow = (delivery: ClaimedDelivery, result: AttemptResult) =>
    sql`INSERT INTO webhook_attempts (delivery_id, attempt, status_code, duration_ms, error, response_excerpt)
        VALUES (${delivery.id}, ${delivery.attempts}, ${result.statusCode}, ${result.durationMs},
          ${result.error}, ${result.responseExcerpt})`

  /**
   * The common case in one statement: the attempt, the delivery done, and the endpoint's failing
   * streak ended — touched only when there is one, so that concurrent deliveries to one endpoint
   * never queue up on its row lock.
   */
  async function recordSuccess(delivery: ClaimedDelivery, result: AttemptResult) {
    await db.execute(
      sql`WITH attempt AS (${attemptRow(delivery, result)}),
            endpoint AS (UPDATE webhook_endpoints SET failing_since = NULL
              WHERE id = ${delivery.endpoint_id} AND failing_since IS NOT NULL)
          UPDATE webhook_deliveries SET status = 'succeeded', finished_at = now() WHERE id = ${delivery.id}`,
    )
  }

  async function recordFailure(tx: Tx, delivery: ClaimedDelivery, result: AttemptResult) {
    await tx.execute(attemptRow(delivery, result))
    const delay = webhookRetryDelaySeconds(delivery.attempts)
    log.info('webhook delivery failed', {
      deliveryId: delivery.id,
      attempt: delivery.attempts,
      status: result.statusCode,
      error: result.error,
      retryInSeconds: delay,
    })
    await tx.execute(
      delay === null
        ? sql`UPDATE webhook_deliveries SET status = 'failed', finished_at = now() WHERE id = ${delivery.id}`
        : sql`UPDATE webhook_deliveries SET next_attempt_at = now() + make_interval(secs => ${delay})
              WHERE id = ${delivery.id}`,
    )
    if (delay !== null && delay * 1000 < WEBHOOK_POLL_INTERVAL_MS) retrySoon(delay * 1000)
    const [endpoint] = await queryRows<{
      url: string
      owner_user_id: string | null
      team_id: string | null
      enabled: boolean
      failing_for_days: boolean
    }>(
      tx,
      sql`SELECT url, owner_user_id, team_id, enabled,
            coalesce(failing_since <= now() - make_interval(days => ${WEBHOOK_DISABLE_AFTER_DAYS}), false) AS failing_for_days
          FROM webhook_endpoints WHERE id = ${delivery.endpoint_id} FOR UPDATE`,
    )
    if (!endpoint) return
    if (endpoint.enabled && endpoint.failing_for_days) {
      await tx.execute(
        sql`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'failing', updated_at = now()
            WHERE id = ${delivery.endpoint_id}`,
      )
      log.warn('webhook endpoint disabled after failing for days', { endpointId: delivery.endpoint_id })
      await mailOwners(tx, endpoint)
    } else {
      await tx.execute(
        sql`UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now()) WHERE id = ${delivery.endpoint_id}`,
      )
    }
  }

  async function mailOwners(
    tx: Tx,
    endpoint: { url: string; owner_user_id: string | null; team_id: string | null },
  ) {
    const recipients = await queryRows<{ email: string }>(
      tx,
      endpoint.team_id
        ? sql`SELECT u.email FROM team_members m JOIN users u ON u.id = m.user_id
              WHERE m.team_id = ${endpoint.team_id} AND m.role = 'admin'`
        : sql`SELECT email FROM users WHERE id = ${endpoint.owner_user_id}`,
    )
    for (const { email } of recipients) {
      const locale = await recipientLocale(tx, email, 'en')
      const rendered = renderMail({
        locale,
        subject: 'webhooks.mail.disabledSubject',
        intro: [['webhooks.mail.disabledBody', { days: WEBHOOK_DISABLE_AFTER_DAYS }]],
        details: [['webhooks.mail.detailUrl', endpoint.url]],
        action: { label: 'webhooks.mail.action', url: new URL('/settings/webhooks', appUrl).toString() },
        appUrl,
      })
      await enqueueMail(tx, { kind: 'webhook_disabled', to: email, ...rendered })
    }
  }

  function retrySoon(ms: number) {
    if (worker.stopped) return
    const timer = setTimeout(() => {
      retryTimers.delete(timer)
      void worker.deliverDue()
    }, ms + 50)
    timer.unref()
    retryTimers.add(timer)
  }

  function track(delivery: ClaimedDelivery) {
    busy.set(delivery.space, (busy.get(delivery.space) ?? 0) + 1)
    const running: Promise<void> = send(delivery)
      .catch((error) =>
        log.error('webhook delivery failed to record', { deliveryId: delivery.id, err: error }),
      )
      .finally(() => {
        inFlight.delete(running)
        const left = (busy.get(delivery.space) ?? 1) - 1
        if (left > 0) busy.set(delivery.space, left)
        else busy.delete(delivery.space)
      })
    inFlight.add(running)
  }

  const worker = createQueueWorker({
    name: 'webhook delivery',
    database,
    channel: WEBHOOK_CHANNEL,
    pollIntervalMs: WEBHOOK_POLL_INTERVAL_MS,
    log,
    // Claims while slots are free and waits for a slot or a wake-up (a delivery queued meanwhile,
    // perhaps by a quiet space while a busy one holds its slots); done when nothing is due or in flight.
    drain: async (wokenUp) => {
      let woken = false
      for (;;) {
        // Claims in batches (a quarter of the slots at least), not one statement per freed slot,
        // unless woken up: then what was just queued is claimed at once if a slot is free.
        const free = CONCURRENCY - inFlight.size
        const claimNow =
          !worker.stopped && free > 0 && (inFlight.size === 0 || free >= CONCURRENCY / 4 || woken)
        const batch = claimNow
          ? await claimDeliveries(db, { limit: free, perSpace: WEBHOOK_SLOTS_PER_SPACE, busy })
          : []
        for (const delivery of batch) track(delivery)
        if (inFlight.size === 0) return false
        woken = false
        await Promise.race([...inFlight, wokenUp().then(() => (woken = true))])
      }
    },
    onStop: async () => {
      for (const timer of retryTimers) clearTimeout(timer)
      retryTimers.clear()
      await Promise.all(inFlight)
    },
  })
  return worker
}
