import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import { dashboardOperations } from '../../../domain/api/dashboard.ts'
import { modelOperations } from '../../../domain/api/models.ts'
import { type Operation, operationUrl } from '../../../domain/api/operation.ts'
import type { Page } from '../../../domain/cursor.ts'
import type { ErrorBody } from '../../../domain/errors.ts'
import type { ModelProvider, RunResult } from '../../../domain/models.ts'
import { auditLog, modelRuns } from '../../db/schema/index.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { FakeModelServer } from '../../testing/model-server.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { addFakeProvider } from '../models/test-fixtures.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'
import { appendMessage, createConversation } from './test-fixtures.ts'

let testApp: TestApp
let fake: FakeModelServer
let owner: TestClient
let admin: TestClient
let member: TestClient
let stranger: TestClient
let ownerId: string
let teamId: string

beforeAll(async () => {
  testApp = await createTestApp({ modelsAllowPrivate: true })
  fake = await FakeModelServer.start()
  owner = new TestClient(testApp)
  admin = new TestClient(testApp)
  member = new TestClient(testApp)
  stranger = new TestClient(testApp)
  ownerId = (await owner.signUp()).id
  const adminUser = await admin.signUp()
  const memberUser = await member.signUp()
  await stranger.signUp()
  teamId = await insertTeam(testApp.database.db, 'Replies', [
    { userId: adminUser.id, role: 'admin' },
    { userId: memberUser.id },
  ])
})
afterAll(async () => {
  await testApp.close()
  await fake.close()
})

const db = () => testApp.database.db

const addProvider = (client: TestClient, body: Record<string, unknown> = {}) =>
  addFakeProvider(client, fake, body)

const reply = (client: TestClient, conversationId: string, body: Record<string, unknown> = {}) =>
  client.call(conversationOperations.generateReply, { params: { id: conversationId }, body })
/** The reply's path, for the requests that read its stream themselves. */
const replyPath = (conversationId: string) =>
  operationUrl(conversationOperations.generateReply.spec, { id: conversationId })

/**
 * Starts a reply from the model that never finishes, as the owner, and reads its first piece.
 * Answers the caller's Stop: it closes the stream and resolves once the fake saw it closed.
 */
async function startEndlessReply(conversationId: string, providerId: string) {
  const controller = new AbortController()
  const cancelled = fake.nextCancellation()
  const res = await owner.send('POST', replyPath(conversationId), {
    body: { providerId, model: 'endless-model' },
    headers: { Accept: 'text/event-stream' },
    signal: controller.signal,
  })
  const reader = res.body!.getReader()
  expect(new TextDecoder().decode((await reader.read()).value)).toContain('Thinking')
  return async () => {
    controller.abort()
    await cancelled
  }
}

/** The messages the fake model server received last. */
const sentMessages = () => fake.requests.at(-1)!.body!.messages as { role: string; content: string }[]

describe('generating a reply', () => {
  it('stores the answer as an assistant message with its model and tokens, and remembers the model', async () => {
    const provider = await addProvider(owner)
    const conversation = await createConversation(owner, { firstMessage: 'Hello there' })
    const res = await reply(owner, conversation.id, { providerId: provider.id })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body).toMatchObject({
      role: 'assistant',
      content: { text: 'Echo: Hello there' },
      model: 'fake-small',
      // The fake counts an answer's words as its output tokens.
      tokenCount: 3,
      createdByUserId: ownerId,
    })
    expect(sentMessages()).toEqual([{ role: 'user', content: 'Hello there' }])
    const after = await owner.call(conversationOperations.get, { params: { id: conversation.id } })
    expect(after.body.replyModel).toEqual({ providerId: provider.id, model: 'fake-small' })
    expect(after.body.content).toMatchObject({
      messages: [
        { role: 'user', content: 'Hello there' },
        { role: 'assistant', content: 'Echo: Hello there' },
      ],
    })

    // The next reply, asked for without a provider, uses the conversation's, and sends the whole exchange.
    await appendMessage(owner, conversation.id, { content: { text: 'And again' } })
    const second = await reply(owner, conversation.id)
    expect(second.status).toBe(201)
    expect(sentMessages()).toEqual([
      { role: 'user', content: 'Hello there' },
      { role: 'assistant', content: 'Echo: Hello there' },
      { role: 'user', content: 'And again' },
    ])
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'conversation.reply'), eq(auditLog.objectId, conversation.id)))
    expect(audit!.after).toMatchObject({ model: 'fake-small', outputTokens: 3 })
    expect(JSON.stringify(audit)).not.toContain(FakeModelServer.apiKey)
  })

  it('puts attached prompts into the message they are attached to: text in its role, chat messages before it', async () => {
    const provider = await addProvider(owner)
    const persona = await createPromptAs(owner, {
      title: 'Persona',
      body: 'You are {{persona}} helping {{customer}}.',
      variables: [{ name: 'persona', default: 'a pirate' }],
    })
    const examples = await createPromptAs(owner, {
      title: 'Examples',
      type: 'chat',
      body: JSON.stringify([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Ahoy' },
      ]),
    })
    const conversation = await createConversation(owner)
    await appendMessage(owner, conversation.id, {
      role: 'system',
      content: { text: 'Be brief.' },
      attachments: [{ promptId: persona.id }],
    })
    await appendMessage(owner, conversation.id, {
      content: { text: 'Where is the treasure?' },
      attachments: [{ promptId: examples.id, promptVersionId: examples.currentVersion!.id }],
    })
    const res = await reply(owner, conversation.id, { providerId: provider.id })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(sentMessages()).toEqual([
      // The default fills {{persona}}; {{customer}} has no value and stays as written.
      { role: 'system', content: 'You are a pirate helping {{customer}}.\n\nBe brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Ahoy' },
      { role: 'user', content: 'Where is the treasure?' },
    ])
  })

  it('streams the reply as server-sent events, the stored message last', async () => {
    const provider = await addProvider(owner)
    const conversation = await createConversation(owner, { firstMessage: 'Stream it' })
    const res = await owner.send('POST', replyPath(conversation.id), {
      body: { providerId: provider.id },
      headers: { Accept: 'text/event-stream' },
    })
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const blocks = (await res.text()).split('\n\n').filter(Boolean)
    const events = blocks.map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1],
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as Record<string, unknown>,
    }))
    const texts = events.filter((e) => e.event === 'text').map((e) => e.data.text)
    expect(texts.length).toBeGreaterThan(1)
    expect(texts.join('')).toBe('Echo: Stream it')
    expect(events.at(-1)).toMatchObject({
      event: 'result',
      data: { role: 'assistant', content: { text: 'Echo: Stream it' }, model: 'fake-small' },
    })
  })

  it('stores nothing when the caller stops it, and records the run as cancelled', async () => {
    const provider = await addProvider(owner)
    const conversation = await createConversation(owner, { firstMessage: 'Take your time' })
    const stop = await startEndlessReply(conversation.id, provider.id)
    await stop()
    await expect
      .poll(async () => {
        const [run] = await db()
          .select({ outcome: modelRuns.outcome })
          .from(modelRuns)
          .where(eq(modelRuns.conversationId, conversation.id))
        return run?.outcome
      })
      .toBe('cancelled')
    const messages = await owner.call(conversationOperations.messages, { params: { id: conversation.id } })
    expect(messages.body.items.map((message) => message.role)).toEqual(['user'])
  })

  it('answers clearly when it cannot reply, and changes nothing', async () => {
    const provider = await addProvider(owner)
    const empty = await createConversation(owner)
    const noProvider = await reply(owner, empty.id)
    expect(noProvider.status).toBe(400)
    expect(errorOf(noProvider).fields?.providerId).toBe('Choose a model provider')
    const noMessages = await reply(owner, empty.id, { providerId: provider.id })
    expect(noMessages.status).toBe(409)
    expect(errorOf(noMessages).message).toBe('Write a message first: a reply answers the conversation so far')

    const conversation = await createConversation(owner, { firstMessage: 'Hi' })
    const missing = await reply(owner, conversation.id, { providerId: provider.id, model: 'missing-model' })
    expect(missing.status).toBe(502)
    expect(errorOf(missing).message).toBe('The provider does not know the model “missing-model”.')
    const german = await owner.call(
      conversationOperations.generateReply,
      { params: { id: conversation.id }, body: { providerId: provider.id, model: 'missing-model' } },
      { 'Accept-Language': 'de' },
    )
    expect(errorOf(german).message).toBe('Der Anbieter kennt das Modell „missing-model“ nicht.')
    const messages = await owner.call(conversationOperations.messages, { params: { id: conversation.id } })
    expect(messages.body.items).toHaveLength(1)
    const after = await owner.call(conversationOperations.get, { params: { id: conversation.id } })
    expect(after.body.replyModel).toBeNull()
  })

  it('records a run whose conversation was deleted while the model answered, without failing', async () => {
    const provider = await addProvider(owner)
    const conversation = await createConversation(owner, { firstMessage: 'Going away' })
    const stop = await startEndlessReply(conversation.id, provider.id)
    expect(
      (await owner.call(conversationOperations.delete, { params: { id: conversation.id } })).status,
    ).toBe(204)
    await stop()
    // The run's row is written last (after its audit entry): waiting for it waits for both.
    await expect
      .poll(() =>
        db()
          .select({ conversationId: modelRuns.conversationId, outcome: modelRuns.outcome })
          .from(modelRuns)
          .where(and(eq(modelRuns.providerId, provider.id), eq(modelRuns.model, 'endless-model'))),
      )
      .toEqual([{ conversationId: null, outcome: 'cancelled' }])
    const [entry] = await db()
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'conversation.reply'), eq(auditLog.objectId, conversation.id)))
    expect(entry?.after).toMatchObject({ model: 'endless-model', finishReason: 'cancelled' })
  })

  it('refuses a model name longer than a message may carry, before calling the model', async () => {
    const provider = await addProvider(owner)
    const conversation = await createConversation(owner, { firstMessage: 'Hi' })
    const before = fake.requests.length
    const res = await reply(owner, conversation.id, { providerId: provider.id, model: 'm'.repeat(150) })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.model).toBe('The model name can be at most 100 characters')
    expect(fake.requests.length).toBe(before)
  })

  it('keeps conversations and providers to those who may use them', async () => {
    const own = await addProvider(owner)
    const conversation = await createConversation(owner, { firstMessage: 'Private' })
    expect((await reply(stranger, conversation.id, { providerId: own.id })).status).toBe(404)
    const strangers = await addProvider(stranger)
    const borrowed = await reply(owner, conversation.id, { providerId: strangers.id })
    expect(borrowed.status).toBe(400)
    expect(errorOf(borrowed).fields?.providerId).toBe('Model provider not found')

    // A team's provider serves its members in the team's conversations.
    const teamProvider = await addProvider(admin, { teamId })
    const teamConversation = await createConversation(member, { teamId, firstMessage: 'Team question' })
    const answered = await reply(member, teamConversation.id, { providerId: teamProvider.id })
    expect(answered.status, JSON.stringify(answered.body)).toBe(201)
    expect(answered.body.content.text).toBe('Echo: Team question')
  })
})

describe('usage of models on the dashboard', () => {
  it('counts runs and replies, with their tokens: mine personally, the team’s on its providers', async () => {
    const user = new TestClient(testApp)
    await user.signUp()
    const provider = await addProvider(user)
    const prompt = await createPromptAs(user, { body: 'Count {{n}}' })
    const run = await user.call(modelOperations.run, {
      params: { id: prompt.id },
      body: { providerId: provider.id, values: { n: 1 } },
    })
    expect(run.status).toBe(200)
    const conversation = await createConversation(user, { firstMessage: 'One' })
    expect((await reply(user, conversation.id, { providerId: provider.id })).status).toBe(201)
    const failed = await reply(user, conversation.id, { providerId: provider.id, model: 'missing-model' })
    expect(failed.status).toBe(502)
    const dashboard = await user.call(dashboardOperations.get, {})
    expect(dashboard.body.modelUsage).toMatchObject({ windowDays: 7, runs: 1, replies: 2, failed: 1 })
    // 'Echo: Count 1' and 'Echo: One': the fake counts words as tokens.
    expect(dashboard.body.modelUsage.outputTokens).toBe(5)
    expect(dashboard.body.modelUsage.inputTokens).toBeGreaterThan(0)

    const teamDashboard = await admin.call(dashboardOperations.get, { query: { teamId } })
    expect(teamDashboard.body.modelUsage.replies).toBeGreaterThanOrEqual(1)
    const strangerDashboard = await stranger.call(dashboardOperations.get, {})
    expect(strangerDashboard.body.modelUsage).toMatchObject({ runs: 0, replies: 0 })
  })
})

describe('API keys running prompts', () => {
  it('lets a read-and-write personal key run with its owner’s own providers, and nothing more', async () => {
    const user = new TestClient(testApp)
    const { id: userId } = await user.signUp()
    const provider = await addProvider(user)
    const prompt = await createPromptAs(user, { body: 'Key run {{x}}' })
    const key = async (scope: 'read' | 'read_write') =>
      (await user.call(apiKeyOperations.create, { body: { name: scope, scope } })).body.secretKey
    const writeKey = await key('read_write')
    const readKey = await key('read')
    const asKey = (secret: string, operation: Operation, params: Record<string, string>, body?: unknown) =>
      testApp.app.request(operationUrl(operation.spec, params), {
        method: operation.spec.method,
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    const runBody = { providerId: provider.id, values: { x: 'y' } }
    const ran = await asKey(writeKey, modelOperations.run, { id: prompt.id }, runBody)
    expect(ran.status).toBe(200)
    expect(((await ran.json()) as RunResult).text).toBe('Echo: Key run y')
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'prompt.run'), eq(auditLog.objectId, prompt.id)))
    expect(audit!.actorKind).toBe('api_key')
    expect(audit!.actorUserId).toBe(userId)

    const readOnly = await asKey(readKey, modelOperations.run, { id: prompt.id }, runBody)
    expect(readOnly.status).toBe(403)
    const usable = await asKey(readKey, modelOperations.usable, {})
    expect(((await usable.json()) as Page<ModelProvider>).items.map((p) => p.id)).toEqual([provider.id])
    const conversation = await createConversation(user, { firstMessage: 'No keys here' })
    const replied = await asKey(
      writeKey,
      conversationOperations.generateReply,
      { id: conversation.id },
      {
        providerId: provider.id,
      },
    )
    expect(replied.status).toBe(403)
    const manage = await asKey(writeKey, modelOperations.list, {})
    expect(manage.status).toBe(403)
  })

  it('does not reach a team’s providers through a personal key', async () => {
    const teamProvider = await addProvider(admin, { teamId })
    const prompt = await createPromptAs(member, { body: 'Mine {{x}}' })
    const secret = (await member.call(apiKeyOperations.create, { body: { name: 'rw', scope: 'read_write' } }))
      .body.secretKey
    const res = await testApp.app.request(operationUrl(modelOperations.run.spec, { id: prompt.id }), {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ providerId: teamProvider.id, values: { x: 1 } }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as ErrorBody).error.fields?.providerId).toBe('Model provider not found')
    // The same member, signed in, may use it.
    const signedIn = await member.call(modelOperations.run, {
      params: { id: prompt.id },
      body: { providerId: teamProvider.id, values: { x: 1 } },
    })
    expect(signedIn.status).toBe(200)
  })
})
