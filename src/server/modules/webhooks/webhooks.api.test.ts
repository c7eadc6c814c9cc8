import { eq, sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import { planOperations } from '../../../domain/api/plans.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { webhookOperations } from '../../../domain/api/webhooks.ts'
import { enqueueEvent } from '../../core/events.ts'
import { queryRows } from '../../db/rows.ts'
import { mailOutbox, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts'
import { createLogger } from '../../log.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { WebhookReceiver } from '../../testing/webhook-receiver.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'
import { claimDeliveries } from './claim.ts'
import { createWebhookDelivery, postWebhook, WEBHOOK_SLOTS_PER_SPACE } from './delivery.ts'

let testApp: TestApp
let receiver: WebhookReceiver
let owner: TestClient
let ownerId: string
let admin: TestClient
let member: TestClient
let stranger: TestClient
let teamId: string

beforeAll(async () => {
  testApp = await createTestApp({ webhookAllowPrivate: true })
  receiver = await WebhookReceiver.start()
  owner = new TestClient(testApp)
  admin = new TestClient(testApp)
  member = new TestClient(testApp)
  stranger = new TestClient(testApp)
  ownerId = (await owner.signUp()).id
  const adminUser = await admin.signUp()
  const memberUser = await member.signUp()
  await stranger.signUp()
  teamId = await insertTeam(testApp.database.db, 'Hooks', [
    { userId: adminUser.id, role: 'admin' },
    { userId: memberUser.id },
  ])
})
afterAll(async () => {
  await testApp.close()
  await receiver.close()
})
beforeEach(() => {
  receiver.answer = () => ({ status: 200, body: 'ok' })
})

const db = () => testApp.database.db
let paths = 0
const freshPath = () => `/hook-${++paths}`

async function createEndpoint(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.call(webhookOperations.create, {
    body: {
      url: `${receiver.url}${freshPath()}`,
      events: [
        'prompt.created',
        'prompt.version.created',
        'prompt.label.moved',
        'prompt.updated',
        'prompt.deleted',
      ],
      ...body,
    },
  })
  expect(res.status).toBe(201)
  return { ...res.body, path: new URL(res.body.url).pathname }
}

/** `client` sends a test event to an endpoint. */
const sendTest = (client: TestClient, id: string) =>
  client.call(webhookOperations.sendTest, { params: { id } })

const headersOf = (request: { headers: Record<string, unknown> }) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
})

interface EventData {
  prompt?: Record<string, unknown>
  version?: Record<string, unknown>
  message?: Record<string, unknown>
  [key: string]: unknown
}

/** Parses a received body after verifying its signature with the standardwebhooks package. */
function verified(secret: string, request: { headers: Record<string, unknown>; body: string }) {
  return new Webhook(secret).verify(request.body, headersOf(request)) as {
    id: string
    type: string
    space: Record<string, unknown>
    actor: Record<string, unknown>
    data: EventData
  }
}

describe('webhook endpoints', () => {
  it('are created with a whsec_ secret shown then, listed without it, revealed and rotated later', async () => {
    const endpoint = await createEndpoint(owner, { description: 'CI' })
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(endpoint).toMatchObject({ description: 'CI', enabled: true, teamId: null, disabledReason: null })

    const list = await owner.call(webhookOperations.list, {})
    expect(list.body.items.map((e) => e.id)).toContain(endpoint.id)
    expect(JSON.stringify(list.body)).not.toContain(endpoint.secret)

    const revealed = await owner.call(webhookOperations.revealSecret, { params: { id: endpoint.id } })
    expect(revealed.body).toEqual({
      secret: endpoint.secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
    })

    const rotated = await owner.call(webhookOperations.rotateSecret, { params: { id: endpoint.id } })
    expect(rotated.status).toBe(200)
    expect(rotated.body.secret).not.toBe(endpoint.secret)
    expect(rotated.body.previousSecret).toBe(endpoint.secret)
    const hours = (Date.parse(rotated.body.previousSecretExpiresAt!) - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(23.9)
    expect(hours).toBeLessThanOrEqual(24)

    const paused = await owner.call(webhookOperations.update, {
      params: { id: endpoint.id },
      body: { enabled: false, events: ['prompt.deleted'] },
    })
    expect(paused.body).toMatchObject({ enabled: false, events: ['prompt.deleted'] })
    const test = await sendTest(owner, endpoint.id)
    expect([test.status, errorOf(test).message]).toEqual([409, 'This endpoint is paused; enable it first'])

    expect((await owner.call(webhookOperations.delete, { params: { id: endpoint.id } })).status).toBe(204)
    expect((await owner.call(webhookOperations.revealSecret, { params: { id: endpoint.id } })).status).toBe(
      404,
    )
  })

  it('validate the URL, the events and the description', async () => {
    const res = await owner.call(webhookOperations.create, {
      body: { url: 'ftp://example.com', events: [], description: 'x'.repeat(501) },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields).toEqual({
      url: 'Enter a valid http:// or https:// URL',
      events: 'Choose at least one event',
      description: 'Description must be at most 500 characters',
    })
    const unknown = await owner.callUnchecked(webhookOperations.create, {
      body: { url: receiver.url, events: ['prompt.eaten'] },
    })
    expect(errorOf(unknown).fields).toEqual({ 'events.0': 'Unknown event type' })
  })

  it('of a team are managed by its admins only; others get 403 or 404', async () => {
    const endpoint = await createEndpoint(admin, { teamId })
    expect(endpoint.teamId).toBe(teamId)
    const listed = await admin.call(webhookOperations.list, { query: { teamId } })
    expect(listed.body.items.map((e) => e.id)).toEqual([endpoint.id])

    expect((await member.call(webhookOperations.list, { query: { teamId } })).status).toBe(403)
    expect(
      (
        await member.call(webhookOperations.create, {
          body: { teamId, url: receiver.url, events: ['prompt.created'] },
        })
      ).status,
    ).toBe(403)
    expect((await member.call(webhookOperations.revealSecret, { params: { id: endpoint.id } })).status).toBe(
      403,
    )
    expect((await stranger.call(webhookOperations.list, { query: { teamId } })).status).toBe(404)
    expect(
      (await stranger.call(webhookOperations.revealSecret, { params: { id: endpoint.id } })).status,
    ).toBe(404)
    expect(
      (
        await stranger.call(webhookOperations.update, {
          params: { id: endpoint.id },
          body: { enabled: false },
        })
      ).status,
    ).toBe(404)
    expect((await stranger.call(webhookOperations.delete, { params: { id: endpoint.id } })).status).toBe(404)
    // A personal endpoint is its owner's alone.
    const mine = await createEndpoint(owner)
    expect((await admin.call(webhookOperations.deliveries, { params: { id: mine.id } })).status).toBe(404)
    expect((await new TestClient(testApp).call(webhookOperations.list, {})).status).toBe(401)
  })
})

describe('delivery', () => {
  it('signs events with Standard Webhooks headers that the standardwebhooks package verifies', async () => {
    const endpoint = await createEndpoint(owner)
    const prompt = await createPromptAs(owner, { title: 'Signed', body: 'Hello {name}' })
    await testApp.webhooks.deliverDue()
    const byType = (type: string) =>
      receiver.on(endpoint.path).filter((r) => JSON.parse(r.body).type === type)
    const [request] = byType('prompt.created')
    expect(receiver.on(endpoint.path)).toHaveLength(2)
    expect(request?.headers['content-type']).toBe('application/json')
    expect(String(request?.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    const event = verified(endpoint.secret, request!)
    expect(event).toMatchObject({
      type: 'prompt.created',
      space: { type: 'personal', userId: ownerId },
      actor: { type: 'user', userId: ownerId },
      data: {
        prompt: { id: prompt.id, name: prompt.name, title: 'Signed' },
        version: { version: 1, body: 'Hello {name}', labels: ['production', 'latest'] },
      },
    })
    expect(event.id).toBe(request?.headers['webhook-id'])
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        request!.body,
        headersOf(request!),
      ),
    ).toThrow()
    // The label placed on version 1 is an event too.
    expect(byType('prompt.label.moved')).toHaveLength(1)

    // A save with a new body: the version (with its labels and body), the label move, the update.
    await owner.call(promptOperations.update, {
      params: { id: prompt.id },
      body: { body: 'Hi {name}', title: 'Signed 2' },
    })
    await testApp.webhooks.deliverDue()
    const event2 = (type: string) => verified(endpoint.secret, byType(type).at(-1)!)
    expect(receiver.on(endpoint.path)).toHaveLength(5)
    expect(event2('prompt.version.created').data.version).toMatchObject({
      version: 2,
      body: 'Hi {name}',
      labels: ['production', 'latest'],
    })
    expect(event2('prompt.label.moved').data).toMatchObject({
      label: 'production',
      fromVersion: 1,
      toVersion: 2,
    })
    expect(event2('prompt.updated').data.prompt).toMatchObject({ title: 'Signed 2' })
  })

  it('retries a failed attempt with the same webhook-id, and logs every attempt', async () => {
    const endpoint = await createEndpoint(owner, { events: ['prompt.deleted'] })
    let calls = 0
    receiver.answer = (request) =>
      request.path === endpoint.path && ++calls === 1 ? { status: 500, body: 'boom' } : { status: 204 }
    await owner.call(promptOperations.delete, { params: { id: (await createPromptAs(owner)).id } })
    await testApp.webhooks.deliverDue()
    let log = await owner.call(webhookOperations.deliveries, { params: { id: endpoint.id } })
    const failed = log.body.items.find((d) => d.log[0]?.statusCode === 500)!
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 })
    // The receiver is on a private address (allowed here): its status is shown, never its body.
    expect(failed.log[0]).toMatchObject({ attempt: 1, statusCode: 500, responseExcerpt: null, error: null })
    const retryIn = (Date.parse(failed.nextAttemptAt!) - Date.now()) / 1000
    expect(retryIn).toBeLessThanOrEqual(10)

    // The retry falls due (moved instead of waited for).
    await db().execute(sql`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = ${failed.id}`)
    await testApp.webhooks.deliverDue()
    log = await owner.call(webhookOperations.deliveries, { params: { id: endpoint.id } })
    const retried = log.body.items.find((d) => d.id === failed.id)!
    expect(retried).toMatchObject({ status: 'succeeded', attempts: 2, nextAttemptAt: null })
    expect(retried.log.map((a) => [a.attempt, a.statusCode])).toEqual([
      [2, 204],
      [1, 500],
    ])
    const ids = receiver.on(endpoint.path).filter((r) => JSON.parse(r.body).type === failed.eventType)
    expect(ids.map((r) => r.headers['webhook-id'])).toEqual([failed.eventId, failed.eventId])
  })

  it('keeps the start of an answer from a public address only', async () => {
    receiver.answer = () => ({ status: 500, body: 'internal details' })
    const post = (isPrivate?: (address: string) => boolean) =>
      postWebhook({
        url: `${receiver.url}${freshPath()}`,
        eventId: 'msg_excerpt',
        body: '{}',
        secrets: [`whsec_${Buffer.alloc(32, 1).toString('base64')}`],
        allowPrivate: true,
        userAgent: 'test',
        isPrivate,
      })
    expect(await post()).toMatchObject({ statusCode: 500, responseExcerpt: null })
    expect(await post(() => false)).toMatchObject({ statusCode: 500, responseExcerpt: 'internal details' })
  })

  it('sends nothing for a rolled-back write', async () => {
    const endpoint = await createEndpoint(owner)
    await db()
      .transaction(async (tx) => {
        await enqueueEvent(
          tx,
          { kind: 'personal', userId: ownerId },
          { type: 'prompt.deleted', actor: null, data: {} },
        )
        throw new Error('roll back')
      })
      .catch(() => {})
    // A write the server refuses halfway (a name taken in the space) queues nothing either.
    const taken = await createPromptAs(owner, { title: 'Taken' })
    const [other] = [await createPromptAs(owner, { title: 'Other' })]
    const before = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
    const clash = await owner.call(promptOperations.update, {
      params: { id: other.id },
      body: { name: taken.name, body: 'changed' },
    })
    expect(clash.status).toBe(409)
    const after = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
    expect(after.length).toBe(before.length)
    expect(after.map((d) => d.eventType)).not.toContain('prompt.version.created')
  })

  it('delivers what a process queued and claimed before it died, from a new worker on the same database', async () => {
    const endpoint = await createEndpoint(owner, {
      events: ['conversation.created', 'conversation.message.created'],
    })
    const res = await owner.call(conversationOperations.create, {
      body: { title: 'Chat', firstMessage: 'Hello' },
    })
    expect(res.status).toBe(201)
    // The dead process had claimed the deliveries (attempt counted, leased) and never answered.
    await db().execute(
      sql`UPDATE webhook_deliveries SET attempts = 1, next_attempt_at = now() + interval '60 seconds'
          WHERE endpoint_id = ${endpoint.id}`,
    )
    const restarted = createWebhookDelivery({
      database: testApp.database,
      log: createLogger('silent'),
      allowPrivate: true,
      appUrl: testApp.config.appUrl,
      version: 'test',
    })
    try {
      await restarted.deliverDue()
      expect(receiver.on(endpoint.path)).toHaveLength(0)
      // The lease runs out.
      await db().execute(
        sql`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE endpoint_id = ${endpoint.id}`,
      )
      await restarted.deliverDue()
    } finally {
      await restarted.stop()
    }
    const events = receiver.on(endpoint.path).map((r) => verified(endpoint.secret, r))
    expect(events.map((e) => e.type).sort()).toEqual(['conversation.created', 'conversation.message.created'])
    expect(events.find((e) => e.type === 'conversation.message.created')?.data.message).toMatchObject({
      role: 'user',
      content: { text: 'Hello' },
    })
  })

  it('a slow endpoint does not hold up another', async () => {
    const slow = await createEndpoint(owner, { events: ['prompt.updated'] })
    const fast = await createEndpoint(owner, { events: ['prompt.updated'] })
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    receiver.answer = (request) =>
      request.path === slow.path ? { status: 200, after: released } : { status: 200 }
    const prompt = await createPromptAs(owner)
    await owner.call(promptOperations.update, { params: { id: prompt.id }, body: { title: 'Renamed' } })
    const round = testApp.webhooks.deliverDue()
    await receiver.waitFor(1, fast.path)
    const [fastDelivery] = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, fast.id))
    await expect
      .poll(
        async () =>
          (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, fastDelivery!.id)))[0]
            ?.status,
      )
      .toBe('succeeded')
    release()
    await round
  })

  it('sends a test event and redelivers with the same event id; a rotation signs with both secrets', async () => {
    const endpoint = await createEndpoint(owner)
    const test = await sendTest(owner, endpoint.id)
    expect(test.status).toBe(201)
    expect(test.body).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 })
    await testApp.webhooks.deliverDue()
    const rotated = await owner.call(webhookOperations.rotateSecret, { params: { id: endpoint.id } })
    const again = await owner.call(webhookOperations.redeliver, {
      params: { id: endpoint.id, deliveryId: test.body.id },
    })
    expect(again.status).toBe(201)
    expect(again.body.eventId).toBe(test.body.eventId)
    await testApp.webhooks.deliverDue()
    const [first, second] = receiver.on(endpoint.path)
    expect(verified(endpoint.secret, first!).type).toBe('webhook.test')
    expect(second?.headers['webhook-id']).toBe(test.body.eventId)
    expect(String(second?.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(verified(rotated.body.secret, second!).id).toBe(test.body.eventId)
    expect(verified(endpoint.secret, second!).id).toBe(test.body.eventId)
    const missing = await owner.call(webhookOperations.redeliver, {
      params: { id: endpoint.id, deliveryId: '00000000-0000-4000-8000-000000000000' },
    })
    expect([missing.status, errorOf(missing).message]).toEqual([404, 'Delivery not found'])
  })

  it('does not follow redirects', async () => {
    const endpoint = await createEndpoint(owner)
    receiver.answer = (request) =>
      request.path === endpoint.path
        ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } }
        : { status: 200 }
    const test = await sendTest(owner, endpoint.id)
    await testApp.webhooks.deliverDue()
    expect(receiver.on('/elsewhere')).toHaveLength(0)
    const log = await owner.call(webhookOperations.deliveries, { params: { id: endpoint.id } })
    expect(log.body.items.find((d) => d.id === test.body.id)).toMatchObject({ status: 'pending' })
  })

  it('disables an endpoint that has failed for days and mails its owner', async () => {
    const endpoint = await createEndpoint(owner)
    receiver.answer = () => ({ status: 503 })
    await db()
      .update(webhookEndpoints)
      .set({ failingSince: sql`now() - interval '6 days'` })
      .where(eq(webhookEndpoints.id, endpoint.id))
    await sendTest(owner, endpoint.id)
    await testApp.webhooks.deliverDue()
    const list = await owner.call(webhookOperations.list, {})
    expect(list.body.items.find((e) => e.id === endpoint.id)).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
    })
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'webhook_disabled'))
    expect(mails.map((m) => m.subject)).toEqual(['A webhook endpoint was disabled'])
    // Enabling it again clears the state.
    const enabled = await owner.call(webhookOperations.update, {
      params: { id: endpoint.id },
      body: { enabled: true },
    })
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null })
  })
})

/** Due deliveries queued straight into the table, `ageSeconds` old. */
async function queueDue(endpointId: string, n: number, ageSeconds: number) {
  const rows = await db()
    .insert(webhookDeliveries)
    .values(
      Array.from({ length: n }, (_, i) => ({
        endpointId,
        eventId: `msg_fair_${endpointId}_${i}`,
        eventType: 'webhook.test',
        payload: '{}',
        nextAttemptAt: sql`now() - make_interval(secs => ${ageSeconds})`,
      })),
    )
    .returning({ id: webhookDeliveries.id })
  return rows.map((row) => row.id)
}

describe('fairness between spaces', () => {
  it('claims a quiet space’s delivery before the older flood of a noisy one, and caps the noisy space’s slots', async () => {
    const noisy = await createEndpoint(owner, { events: ['prompt.deleted'] })
    const noisy2 = await createEndpoint(owner, { events: ['prompt.deleted'] })
    const quiet = await createEndpoint(admin, { teamId, events: ['prompt.deleted'] })
    // The queue must hold only this test's rows: an earlier test's delivery whose lease ran out
    // (a slow machine) would be due again and take a slot.
    await db().delete(webhookDeliveries)
    try {
      await queueDue(noisy.id, 150, 120)
      await queueDue(noisy2.id, 50, 90)
      const [quietId] = await queueDue(quiet.id, 1, 0)

      // Oldest first alone would hand out 200 noisy rows before the quiet one.
      const first = await claimDeliveries(db(), {
        limit: 4,
        perSpace: WEBHOOK_SLOTS_PER_SPACE,
        busy: new Map(),
      })
      expect(first).toHaveLength(4)
      expect(first.map((d) => d.id)).toContain(quietId)
      expect(first.filter((d) => d.space === ownerId)).toHaveLength(3)
      expect(first.find((d) => d.id === quietId)?.space).toBe(teamId)

      // The noisy space holds its share of slots in this process: it gets no more, whatever is free.
      const busy = new Map([[ownerId, WEBHOOK_SLOTS_PER_SPACE]])
      expect(await claimDeliveries(db(), { limit: 32, perSpace: WEBHOOK_SLOTS_PER_SPACE, busy })).toEqual([])
      // With some of its slots free again it gets those, and no more than those.
      busy.set(ownerId, WEBHOOK_SLOTS_PER_SPACE - 2)
      const more = await claimDeliveries(db(), { limit: 32, perSpace: WEBHOOK_SLOTS_PER_SPACE, busy })
      expect(more.map((d) => d.space)).toEqual([ownerId, ownerId])

      // A delivery the quiet space queues while the noisy one has deliveries in flight takes the
      // next free slot.
      const [later] = await queueDue(quiet.id, 1, 0)
      busy.set(ownerId, 1)
      const next = await claimDeliveries(db(), { limit: 1, perSpace: WEBHOOK_SLOTS_PER_SPACE, busy })
      expect(next.map((d) => d.id)).toEqual([later])
      // A claimed row is leased: claimed once only.
      const again = await claimDeliveries(db(), { limit: 300, perSpace: 300, busy: new Map() })
      const claimedIds = [...first, ...more, ...next].map((d) => d.id)
      expect(again.map((d) => d.id).filter((id) => claimedIds.includes(id))).toEqual([])
      expect(again).toHaveLength(200 - 5)
    } finally {
      for (const endpoint of [noisy, noisy2, quiet]) {
        await db().delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))
      }
    }
  })
})

describe('fairness between spaces (the worker)', () => {
  it('sends a quiet space’s new delivery at once while a noisy space’s deliveries hang', async () => {
    const noisy = await createEndpoint(owner, { events: ['prompt.deleted'] })
    const quiet = await createEndpoint(admin, { teamId, events: ['prompt.deleted'] })
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    receiver.answer = (request) =>
      request.path === noisy.path ? { status: 200, after: released } : { status: 200 }
    let round: Promise<void> | undefined
    try {
      await queueDue(noisy.id, 40, 10)
      round = testApp.webhooks.deliverDue()
      await receiver.waitFor(WEBHOOK_SLOTS_PER_SPACE, noisy.path)
      await queueDue(quiet.id, 1, 0)
      // What the NOTIFY sent by the queueing commit does: the round in progress claims it at once,
      // without waiting for a slot held by the noisy space to free up.
      void testApp.webhooks.deliverDue()
      await receiver.waitFor(1, quiet.path)
      expect(receiver.on(noisy.path)).toHaveLength(WEBHOOK_SLOTS_PER_SPACE)
    } finally {
      release()
      await round
      for (const endpoint of [noisy, quiet]) {
        await db().delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))
      }
    }
    expect(receiver.on(noisy.path)).toHaveLength(40)
  })
})

describe('test events and redeliveries', () => {
  let limited: TestApp
  let user: TestClient
  beforeAll(async () => {
    limited = await createTestApp({ webhookAllowPrivate: true, rateLimitMultiplier: 1 })
    user = new TestClient(limited)
    await user.signUp()
  })
  afterAll(() => limited.close())

  it('are limited to 10 a minute per endpoint, with a 429 that says how long to wait', async () => {
    const create = async () =>
      (
        await user.call(webhookOperations.create, {
          body: { url: `${receiver.url}${freshPath()}`, events: ['prompt.created'] },
        })
      ).body
    const endpoint = await create()
    const first = await sendTest(user, endpoint.id)
    expect(first.status).toBe(201)
    for (let i = 0; i < 4; i++) {
      expect((await sendTest(user, endpoint.id)).status).toBe(201)
    }
    for (let i = 0; i < 5; i++) {
      const res = await user.call(webhookOperations.redeliver, {
        params: { id: endpoint.id, deliveryId: first.body.id },
      })
      expect(res.status).toBe(201)
    }
    const refused = await sendTest(user, endpoint.id)
    expect([refused.status, errorOf(refused).code]).toEqual([429, 'rate_limited'])
    const wait = Number(refused.headers.get('retry-after'))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(60)
    expect(errorOf(refused).message).toBe(
      `This endpoint was sent 10 test events and redeliveries in the last minute. Please wait ${wait} seconds before sending again.`,
    )
    const redelivery = await user
      .copy({ locale: 'de' })
      .call(webhookOperations.redeliver, { params: { id: endpoint.id, deliveryId: first.body.id } })
    expect(redelivery.status).toBe(429)
    expect(errorOf(redelivery).message).toMatch(/^An diesen Endpunkt wurden in der letzten Minute 10 /)
    // Nothing more was queued; another endpoint has its own allowance.
    const queued = await limited.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
    expect(queued).toHaveLength(10)
    const other = await create()
    expect((await sendTest(user, other.id)).status).toBe(201)
  })

  it('do not count when refused for another reason', async () => {
    const endpoint = (
      await user.call(webhookOperations.create, {
        body: { url: `${receiver.url}${freshPath()}`, events: ['prompt.created'], enabled: false },
      })
    ).body
    for (let i = 0; i < 12; i++) {
      expect((await sendTest(user, endpoint.id)).status).toBe(409)
    }
    await user.call(webhookOperations.update, { params: { id: endpoint.id }, body: { enabled: true } })
    expect((await sendTest(user, endpoint.id)).status).toBe(201)
  })
})

describe('SSRF protection', () => {
  let strict: TestApp
  let user: TestClient
  beforeAll(async () => {
    strict = await createTestApp()
    user = new TestClient(strict)
    await user.signUp()
  })
  afterAll(() => strict.close())

  it('refuses private, loopback, link-local and metadata targets when saved', async () => {
    for (const url of [
      receiver.url,
      'http://localhost:8080/',
      'http://10.1.2.3/',
      'http://192.168.0.10/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:9000/',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[2002:7f00:1::]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://2130706433/',
    ]) {
      const res = await user.call(webhookOperations.create, { body: { url, events: ['prompt.created'] } })
      expect([url, res.status, errorOf(res).fields?.url]).toEqual([
        url,
        400,
        'This URL points to a private, loopback or link-local address; webhooks are only sent to public addresses',
      ])
    }
  })

  it('refuses them again at delivery time (the address may have changed since)', async () => {
    const [me] = await queryRows<{ id: string }>(strict.database.db, sql`SELECT id FROM users LIMIT 1`)
    // An address literal, and a name that resolves to loopback (checked in the connection's lookup).
    const path = freshPath()
    const targets = [`${receiver.url}${path}`, `${receiver.url.replace('127.0.0.1', 'localhost')}${path}`]
    const endpoints = await strict.database.db
      .insert(webhookEndpoints)
      .values(
        targets.map((url) => ({
          ownerUserId: me!.id,
          url,
          events: ['prompt.created'],
          secret: 'whsec_AAAA',
        })),
      )
      .returning()
    await createPromptAs(user)
    await strict.webhooks.deliverDue()
    expect(receiver.on(path)).toHaveLength(0)
    for (const endpoint of endpoints) {
      const [delivery] = await strict.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint.id))
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1 })
      const [attempt] = await queryRows<{ error: string; status_code: number | null }>(
        strict.database.db,
        sql`SELECT error, status_code FROM webhook_attempts WHERE delivery_id = ${delivery!.id}`,
      )
      expect(attempt).toMatchObject({ status_code: null })
      expect(attempt?.error).toMatch(/private, loopback or link-local/)
    }
  })
})

describe('the plan’s webhooks', () => {
  it('lets a trial create endpoints and refuses them on Free with the paywall', async () => {
    const plansApp = await createTestApp({ plansEnabled: true, webhookAllowPrivate: true })
    try {
      const user = new TestClient(plansApp)
      await user.signUp()
      const body = { url: `${receiver.url}/plan`, events: ['prompt.created' as const] }
      expect((await user.call(webhookOperations.create, { body })).status).toBe(201)
      expect((await user.call(planOperations.choose, { body: { plan: 'free' } })).status).toBe(200)
      const refused = await user.call(webhookOperations.create, { body })
      expect([refused.status, errorOf(refused).code]).toEqual([403, 'plan_limit'])
      expect(errorOf(refused)).toMatchObject({ reason: 'feature_not_available' })
    } finally {
      await plansApp.close()
    }
  })
})
