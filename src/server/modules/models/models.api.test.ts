import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { modelOperations } from '../../../domain/api/models.ts'
import { operationUrl } from '../../../domain/api/operation.ts'
import { RUN_RATE_LIMIT } from '../../../domain/models.ts'
import { auditLog, modelProviders } from '../../db/schema/index.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { FakeModelServer } from '../../testing/model-server.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'
import { addFakeProvider } from './test-fixtures.ts'

let testApp: TestApp
let fake: FakeModelServer
let owner: TestClient
let admin: TestClient
let member: TestClient
let stranger: TestClient
let teamId: string
let strangerId: string

beforeAll(async () => {
  testApp = await createTestApp({ modelsAllowPrivate: true })
  fake = await FakeModelServer.start()
  owner = new TestClient(testApp)
  admin = new TestClient(testApp)
  member = new TestClient(testApp)
  stranger = new TestClient(testApp)
  await owner.signUp()
  const adminUser = await admin.signUp()
  const memberUser = await member.signUp()
  strangerId = (await stranger.signUp()).id
  teamId = await insertTeam(testApp.database.db, 'Models', [
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

/** The events of a server-sent event stream, read to its end. */
function parseEvents(text: string) {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1]
      return { event, data: JSON.parse(data ?? 'null') as Record<string, unknown> }
    })
}

/** The run's path, for the requests that read its stream themselves. */
const runPath = (promptId: string) => operationUrl(modelOperations.run.spec, { id: promptId })
const runBody = (providerId: string, extra: Record<string, unknown> = {}) => ({
  providerId,
  values: { name: 'Ada' },
  ...extra,
})

describe('model providers', () => {
  it('stores the key sealed, shows only a hint, and lists the provider for its space', async () => {
    const provider = await addProvider(owner)
    expect(provider.keyHint).toBe('…cdef')
    expect(JSON.stringify(provider)).not.toContain(FakeModelServer.apiKey)
    const [row] = await db().select().from(modelProviders).where(eq(modelProviders.id, provider.id))
    expect(row!.sealedKey.startsWith('v1:')).toBe(true)
    expect(row!.sealedKey).not.toContain(FakeModelServer.apiKey)
    expect(JSON.stringify(row)).not.toContain(FakeModelServer.apiKey)
    const list = await owner.call(modelOperations.list, {})
    expect(list.body.items.map((p) => p.id)).toContain(provider.id)
    const audit = await db().select().from(auditLog).where(eq(auditLog.objectId, provider.id))
    expect(audit.map((entry) => entry.action)).toEqual(['model.provider.created'])
    expect(JSON.stringify(audit)).not.toContain(FakeModelServer.apiKey)
  })

  it('fills the base URL of the kind when it is left blank, and refuses a default that is not listed', async () => {
    const blank = await owner.call(modelOperations.create, {
      body: { kind: 'anthropic', name: 'Claude', apiKey: 'sk-ant-x', models: ['a'], defaultModel: 'b' },
    })
    expect(blank.status).toBe(400)
    expect(errorOf(blank).fields?.defaultModel).toBe('The default model must be one of the listed models')
  })

  it('fetches the model names the provider lists', async () => {
    const provider = await addProvider(owner)
    const res = await owner.call(modelOperations.fetchModels, { params: { id: provider.id } })
    expect(res.status).toBe(200)
    expect(res.body.models).toEqual(['fake-large', 'fake-small'])
  })

  it('reports a wrong key as the provider refusing it, in the caller’s language', async () => {
    const provider = await addProvider(owner, { apiKey: 'sk-wrong' })
    const res = await owner.call(modelOperations.fetchModels, { params: { id: provider.id } })
    expect(res.status).toBe(502)
    expect(errorOf(res).message).toBe(
      'The provider refused the API key (HTTP 401). Check the key in Settings → Models.',
    )
  })

  it('replaces the key without showing it, and keeps team providers to the team’s admins', async () => {
    const provider = await addProvider(admin, { teamId })
    const changed = await admin.call(modelOperations.update, {
      params: { id: provider.id },
      body: { apiKey: 'sk-new-key-9999' },
    })
    expect(changed.status).toBe(200)
    expect(changed.body.keyHint).toBe('…9999')
    const byMember = await member.call(modelOperations.update, {
      params: { id: provider.id },
      body: { name: 'Mine' },
    })
    expect(byMember.status).toBe(403)
    const byStranger = await stranger.call(modelOperations.update, {
      params: { id: provider.id },
      body: { name: 'X' },
    })
    expect(byStranger.status).toBe(404)
    const memberAdds = await member.call(modelOperations.create, {
      body: { kind: 'openai_compatible', name: 'X', apiKey: 'k', teamId },
    })
    expect(memberAdds.status).toBe(403)
  })

  it('refuses base URLs on private addresses unless MODELS_ALLOW_PRIVATE is set', async () => {
    const strict = await createTestApp({ modelsAllowPrivate: false })
    try {
      const client = await TestClient.signedUp(strict)
      for (const baseUrl of [
        'http://127.0.0.1:11434/v1',
        'http://169.254.169.254/latest',
        'http://[::1]/v1',
      ]) {
        const res = await client.call(modelOperations.create, {
          body: { kind: 'openai_compatible', name: 'Local', baseUrl, apiKey: 'ollama' },
        })
        expect(res.status).toBe(400)
        expect(errorOf(res).fields?.baseUrl).toContain('MODELS_ALLOW_PRIVATE=1')
      }
    } finally {
      await strict.close()
    }
  })
})

describe('running a prompt', () => {
  it('answers as JSON with the text, tokens and times, and audits the run without the key', async () => {
    const provider = await addProvider(owner)
    const prompt = await createPromptAs(owner, { body: 'Say hello to {{name}}.' })
    const res = await owner.call(modelOperations.run, {
      params: { id: prompt.id },
      body: runBody(provider.id),
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.text).toBe('Echo: Say hello to Ada.')
    expect(res.body.model).toBe('fake-small')
    expect(res.body.usage.outputTokens).toBe(5)
    expect(res.body.usage.inputTokens).toBeGreaterThan(0)
    expect(res.body.finishReason).toBe('stop')
    const upstream = fake.requests.at(-1)!
    expect(upstream.body?.stream).toBe(true)
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'prompt.run'))
      .orderBy(auditLog.createdAt)
    expect(entry!.after).toMatchObject({ model: 'fake-small', outputTokens: 5, versionNumber: 1 })
    expect(JSON.stringify(entry)).not.toContain(FakeModelServer.apiKey)
  })

  it('streams the answer as server-sent events through the OpenAI-compatible API', async () => {
    const provider = await addProvider(owner)
    const prompt = await createPromptAs(owner, { body: 'Tell {{name}} a joke.' })
    const res = await owner.send('POST', runPath(prompt.id), {
      body: runBody(provider.id),
      headers: { Accept: 'text/event-stream' },
    })
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const events = parseEvents(await res.text())
    const texts = events.filter((e) => e.event === 'text').map((e) => e.data.text)
    expect(texts.join('')).toBe('Echo: Tell Ada a joke.')
    expect(texts.length).toBeGreaterThan(1)
    const result = events.at(-1)!
    expect(result.event).toBe('result')
    expect(result.data).toMatchObject({ text: 'Echo: Tell Ada a joke.', usage: { outputTokens: 5 } })
  })

  it('streams through the Anthropic Messages API with the version’s config as defaults', async () => {
    const provider = await addProvider(owner, {
      kind: 'anthropic',
      name: 'Fake Claude',
      baseUrl: fake.anthropicBaseUrl,
      models: [],
      defaultModel: '',
    })
    const prompt = await createPromptAs(owner, {
      body: 'Greet {{name}}.',
      config: { model: 'fake-claude', temperature: 0.2, max_tokens: 64 },
    })
    const res = await owner.send('POST', runPath(prompt.id), {
      body: runBody(provider.id),
      headers: { Accept: 'text/event-stream' },
    })
    const events = parseEvents(await res.text())
    expect(events.at(-1)).toMatchObject({
      event: 'result',
      data: { text: 'Echo: Greet Ada.', model: 'fake-claude', usage: { outputTokens: 3 } },
    })
    const sent = fake.requests.at(-1)!
    expect(sent.path).toBe('/anthropic/v1/messages')
    expect(sent.body).toMatchObject({ model: 'fake-claude', temperature: 0.2, max_tokens: 64, stream: true })
  })

  it('cancels the upstream request when the caller stops, and keeps the answer so far', async () => {
    const provider = await addProvider(owner)
    const prompt = await createPromptAs(owner, { body: 'Think, {{name}}.' })
    const stop = new AbortController()
    const cancelled = fake.nextCancellation()
    const before = fake.cancelled
    const res = await owner.send('POST', runPath(prompt.id), {
      body: runBody(provider.id, { model: 'endless-model' }),
      headers: { Accept: 'text/event-stream' },
      signal: stop.signal,
    })
    const reader = res.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toContain('Thinking')
    stop.abort()
    await cancelled
    expect(fake.cancelled).toBe(before + 1)
  })

  it.each([
    ['OpenAI-compatible', 'openai_compatible'],
    ['Anthropic', 'anthropic'],
  ] as const)('a run stopped by its caller (%s) is audited as cancelled, not an error', async (_, kind) => {
    const provider = await addProvider(owner, {
      kind,
      baseUrl: kind === 'anthropic' ? fake.anthropicBaseUrl : fake.openAiBaseUrl,
    })
    const prompt = await createPromptAs(owner, { body: 'Stop me, {{name}}.' })
    const stop = new AbortController()
    const cancelled = fake.nextCancellation()
    const res = await owner.send('POST', runPath(prompt.id), {
      body: runBody(provider.id, { model: 'endless-model' }),
      headers: { Accept: 'text/event-stream' },
      signal: stop.signal,
    })
    const reader = res.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('Thinking')
    stop.abort()
    await cancelled
    await expect
      .poll(async () => {
        const [entry] = await db()
          .select({ after: auditLog.after })
          .from(auditLog)
          .where(sql`${auditLog.action} = 'prompt.run' AND ${auditLog.objectId} = ${prompt.id}`)
        return entry?.after
      })
      .toMatchObject({ model: 'endless-model', finishReason: 'cancelled' })
  })

  it('turns the provider’s errors into clear messages, never a 500', async () => {
    const provider = await addProvider(owner)
    const prompt = await createPromptAs(owner, { body: 'Hi {{name}}' })
    const run = (model: string) =>
      owner.call(modelOperations.run, { params: { id: prompt.id }, body: runBody(provider.id, { model }) })
    const missing = await run('missing-model')
    expect(missing.status).toBe(502)
    expect(errorOf(missing).message).toBe('The provider does not know the model “missing-model”.')
    const busy = await run('busy-model')
    expect(busy.status).toBe(502)
    expect(errorOf(busy).message).toBe(
      'The provider is limiting requests (HTTP 429). Try again in 7 seconds.',
    )
    expect(errorOf(busy).retryAfter).toBe(7)
    const broken = await run('broken-model')
    expect(broken.status).toBe(502)
    expect(errorOf(broken).message).toBe('The provider had an error (HTTP 500). Try again later.')
    const german = new TestClient(testApp, { locale: 'de' })
    await german.signUp()
    const germanProvider = await addProvider(german)
    const inGerman = await german.call(modelOperations.run, {
      params: { id: (await createPromptAs(german, { body: 'Hallo' })).id },
      body: runBody(germanProvider.id, { model: 'missing-model' }),
    })
    expect(errorOf(inGerman).message).toBe('Der Anbieter kennt das Modell „missing-model“ nicht.')
  })

  it('sends an error event on the stream when the provider refuses', async () => {
    const provider = await addProvider(owner, { apiKey: 'sk-wrong' })
    const prompt = await createPromptAs(owner, { body: 'Hi {{name}}' })
    const res = await owner.send('POST', runPath(prompt.id), {
      body: runBody(provider.id),
      headers: { Accept: 'text/event-stream' },
    })
    const events = parseEvents(await res.text())
    expect(events.at(-1)).toMatchObject({
      event: 'error',
      data: { status: 502, error: { code: 'upstream', reason: 'upstream_401' } },
    })
  })

  it('lets team members use the team’s provider, and nobody else', async () => {
    const provider = await addProvider(admin, { teamId })
    const prompt = await createPromptAs(member, { body: 'Hello {{name}}' })
    const byMember = await member.call(modelOperations.run, {
      params: { id: prompt.id },
      body: runBody(provider.id),
    })
    expect(byMember.status).toBe(200)
    const usable = await member.call(modelOperations.usable, {})
    expect(usable.body.items.map((p) => p.id)).toContain(provider.id)
    const strangerPrompt = await createPromptAs(stranger, { body: 'Hello {{name}}' })
    const byStranger = await stranger.call(modelOperations.run, {
      params: { id: strangerPrompt.id },
      body: runBody(provider.id),
    })
    expect(byStranger.status).toBe(400)
    expect(errorOf(byStranger).fields?.providerId).toBe('Model provider not found')
    const strangerList = await stranger.call(modelOperations.usable, {})
    expect(strangerList.body.items.map((p) => p.id)).not.toContain(provider.id)
  })

  it('limits runs per user, with the wait in the message', async () => {
    const provider = await addProvider(stranger)
    const prompt = await createPromptAs(stranger, { body: 'Hi' })
    // The user's minute is spent: the window's count is at its maximum (scaled as the app scales it).
    const max = RUN_RATE_LIMIT.perUser * testApp.config.rateLimitMultiplier
    await db().execute(
      sql`INSERT INTO rate_limits (key, count, last_request) VALUES (${`model-run:user:${strangerId}`}, ${max}, ${Date.now()})`,
    )
    const res = await stranger.call(modelOperations.run, {
      params: { id: prompt.id },
      body: { providerId: provider.id },
    })
    expect(res.status).toBe(429)
    expect(errorOf(res).message).toMatch(/^You started too many runs\. Please wait [\d,]+ seconds\.$/)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})
