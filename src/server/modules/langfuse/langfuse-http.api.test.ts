import { gunzipSync } from 'node:zlib'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import type { CreatedApiKey } from '../../../domain/api-keys.ts'
import { API_KEY_RATE_LIMIT } from '../../../domain/api-keys.ts'
import { MAX_BODY_BYTES } from '../../app.ts'
import { apiKeys } from '../../db/schema/index.ts'
import { keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

/** The prompt API's HTTP details that the SDK tests do not show: headers, statuses, error shapes. */
let testApp: TestApp
let owner: TestClient
let key: CreatedApiKey
let basic: string

beforeAll(async () => {
  testApp = await createTestApp()
  await new TestClient(testApp).signUp()
  owner = new TestClient(testApp)
  await owner.signUp()
  key = (await owner.call(apiKeyOperations.create, { body: { name: 'http', scope: 'read_write' } })).body
  basic = keyPairAuthorization(key)
})
afterAll(() => testApp.close())

function call(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  return testApp.app.request(path, {
    method,
    headers: {
      Authorization: basic,
      ...(options.body ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  })
}

describe('Langfuse prompt API over HTTP', () => {
  it('serves prompts made in the app, by name, with production = the current version', async () => {
    const made = await createPromptAs(owner, { title: 'Welcome mail', body: 'Hi {{name}}' })
    const res = await call('GET', `/api/public/v2/prompts/${encodeURIComponent(made.name)}`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      name: 'welcome-mail',
      version: 1,
      type: 'text',
      prompt: 'Hi {{name}}',
      labels: ['production', 'latest'],
      isActive: true,
      config: {},
      createdBy: made.ownerUserId,
      resolutionGraph: null,
    })
  })

  it("keeps the current version's typed variables on a new version made through Langfuse's create", async () => {
    const declared = [{ name: 'tone', type: 'enum' as const, values: ['warm', 'formal'] }]
    const made = await createPromptAs(owner, {
      title: 'Typed greeting',
      body: 'Write {{tone}}',
      variables: declared,
    })
    const created = await call('POST', '/api/public/v2/prompts', {
      body: { name: made.name, prompt: 'Write {{tone}}, briefly', labels: ['production'] },
    })
    expect(created.status).toBe(201)
    const detail = await owner.call(promptOperations.get, { params: { id: made.id } })
    expect(detail.body.currentVersion).toMatchObject({ versionNumber: 2, body: 'Write {{tone}}, briefly' })
    expect(detail.body.currentVersion?.variables).toEqual([expect.objectContaining(declared[0])])
  })

  it('answers with an ETag and 304 on If-None-Match; versions are immutable, labels revalidated', async () => {
    await call('POST', '/api/public/v2/prompts', {
      body: { name: 'etag', prompt: 'one', labels: ['production'] },
    })
    const first = await call('GET', '/api/public/v2/prompts/etag')
    const etag = first.headers.get('ETag')!
    expect(etag).toMatch(/^".+"$/)
    expect(first.headers.get('Cache-Control')).toBe('private, max-age=0, must-revalidate')
    const again = await call('GET', '/api/public/v2/prompts/etag', { headers: { 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const byVersion = await call('GET', '/api/public/v2/prompts/etag?version=1')
    expect(byVersion.headers.get('Cache-Control')).toContain('immutable')
    // A label move changes the answer, so the old ETag no longer matches.
    await call('POST', '/api/public/v2/prompts', {
      body: { name: 'etag', prompt: 'two', labels: ['production'] },
    })
    const moved = await call('GET', '/api/public/v2/prompts/etag', { headers: { 'If-None-Match': etag } })
    expect(moved.status).toBe(200)
    expect(((await moved.json()) as { version: number }).version).toBe(2)
  })

  it('gzips a large fetch for a client that accepts it, with a weak ETag that still revalidates', async () => {
    await call('POST', '/api/public/v2/prompts', {
      body: {
        name: 'large',
        prompt: 'Answer the ticket {{ticket}} politely. '.repeat(100),
        labels: ['production'],
      },
    })
    const gzip = { 'Accept-Encoding': 'gzip' }
    const first = await call('GET', '/api/public/v2/prompts/large', { headers: gzip })
    expect(first.headers.get('Content-Encoding')).toBe('gzip')
    const answer = JSON.parse(gunzipSync(Buffer.from(await first.arrayBuffer())).toString())
    expect((answer as { prompt: string }).prompt).toContain('politely')
    const etag = first.headers.get('ETag')!
    expect(etag).toMatch(/^W\/".+"$/)
    const again = await call('GET', '/api/public/v2/prompts/large', {
      headers: { ...gzip, 'If-None-Match': etag },
    })
    expect(again.status).toBe(304)
    expect(again.headers.get('Cache-Control')).toBe('private, max-age=0, must-revalidate')
    const plain = await call('GET', '/api/public/v2/prompts/large')
    expect(plain.headers.get('Content-Encoding')).toBeNull()
    expect(plain.headers.get('ETag')).toBe(etag.slice(2))
  })

  it('uses Langfuse’s statuses and {message, error} shape', async () => {
    const both = await call('GET', '/api/public/v2/prompts/etag?version=1&label=production')
    expect(both.status).toBe(400)
    expect(await both.json()).toEqual({
      message: 'Cannot specify both version and label',
      error: 'InvalidRequestError',
    })
    // Beyond the version column's integer: refused as a bad request, not a database error.
    expect((await call('GET', '/api/public/v2/prompts/etag?version=9007199254740991')).status).toBe(400)
    expect(
      (
        await call('PATCH', '/api/public/v2/prompts/etag/versions/9007199254740991', {
          body: { newLabels: ['x'] },
        })
      ).status,
    ).toBe(404)
    const missing = await call('GET', '/api/public/v2/prompts/nope?version=7')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({
      message: "Prompt not found: 'nope' with version 7",
      error: 'LangfuseNotFoundError',
    })
    const invalid = await call('POST', '/api/public/v2/prompts', { body: { name: 'a|b', prompt: 'x' } })
    expect(invalid.status).toBe(400)
    expect(((await invalid.json()) as { message: string }).message).toBe('Invalid request data')
    const latest = await call('PATCH', '/api/public/v2/prompts/etag/versions/1', {
      body: { newLabels: ['latest'] },
    })
    expect(latest.status).toBe(400)
    // As Langfuse: Bearer carries a public key, which never reads prompts (403); anything else
    // in it (a secret, a made-up value) is an invalid key (401).
    const bearer = await call('GET', '/api/public/v2/prompts/etag', {
      headers: { Authorization: `Bearer ${key.publicKey}` },
    })
    expect(bearer.status).toBe(403)
    expect(((await bearer.json()) as { error: string }).error).toBe('ForbiddenError')
    for (const token of [key.secretKey, 'pk-pf-made-up']) {
      const invalid = await call('GET', '/api/public/v2/prompts/etag', {
        headers: { Authorization: `Bearer ${token}` },
      })
      expect(invalid.status).toBe(401)
      expect(((await invalid.json()) as { error: string }).error).toBe('UnauthorizedError')
    }
    const anonymous = await testApp.app.request('/api/public/v2/prompts/etag')
    expect(anonymous.status).toBe(401)
    expect(((await anonymous.json()) as { error: string }).error).toBe('UnauthorizedError')
    const wrongPair = await call('GET', '/api/public/v2/prompts/etag', {
      headers: { Authorization: `Basic ${Buffer.from(`pk-pf-other:${key.secretKey}`).toString('base64')}` },
    })
    expect(wrongPair.status).toBe(401)
    expect((await call('PUT', '/api/public/v2/prompts/etag')).status).toBe(405)
  })

  it('refuses a body over the limit in Langfuse’s shape too', async () => {
    const huge = await call('POST', '/api/public/v2/prompts', {
      body: { name: 'huge', prompt: 'x'.repeat(MAX_BODY_BYTES) },
    })
    expect(huge.status).toBe(413)
    expect(await huge.json()).toMatchObject({ error: 'InvalidRequestError', message: expect.any(String) })
  })

  it('names the clashing name in Langfuse’s words', async () => {
    const clash = await call('POST', '/api/public/v2/prompts', {
      body: {
        name: 'clash',
        type: 'chat',
        prompt: [
          { role: 'system', content: 'Hi {{history}}' },
          { type: 'placeholder', name: 'history' },
        ],
      },
    })
    expect(clash.status).toBe(400)
    expect(await clash.json()).toEqual({
      message:
        'Cannot create prompt, variables and placeholders must be unique, the following are not: history',
      error: 'InvalidRequestError',
    })
  })

  it('checks a fetch’s key as every route does: rate limited, revoked at once, refused before a bad query', async () => {
    const reader = (await owner.call(apiKeyOperations.create, { body: { name: 'reader', scope: 'read' } }))
      .body
    const pair = (secret: string) =>
      `Basic ${Buffer.from(`${reader.publicKey}:${secret}`).toString('base64')}`
    const fetchAs = (secret: string, path: string) =>
      testApp.app.request(path, { headers: { Authorization: pair(secret) } })
    await call('POST', '/api/public/v2/prompts', {
      body: { name: 'checked', prompt: 'x', labels: ['production'] },
    })
    const limit = API_KEY_RATE_LIMIT * testApp.config.rateLimitMultiplier
    const ok = await fetchAs(reader.secretKey, '/api/public/v2/prompts/checked')
    expect(ok.status).toBe(200)
    expect(ok.headers.get('X-RateLimit-Limit')).toBe(String(limit))
    expect((await fetchAs(reader.secretKey, '/api/public/prompts?name=checked')).status).toBe(200)
    // A wrong secret is refused before the query is looked at, on both fetch routes.
    expect((await fetchAs('sk-pf-wrong', '/api/public/v2/prompts/checked?version=1&label=x')).status).toBe(
      401,
    )
    expect((await fetchAs('sk-pf-wrong', '/api/public/prompts')).status).toBe(401)
    expect((await fetchAs('sk-pf-wrong', '/api/public/v2/prompts/checked')).status).toBe(401)
    // A used-up window answers 429 and not the prompt: a key whose window other processes used up
    // (this one reads the row when it first checks the key).
    const spent = (await owner.call(apiKeyOperations.create, { body: { name: 'spent', scope: 'read' } })).body
    await testApp.database.db.update(apiKeys).set({ windowCount: limit }).where(eq(apiKeys.id, spent.id))
    const limited = await testApp.app.request('/api/public/v2/prompts/checked', {
      headers: {
        Authorization: keyPairAuthorization(spent),
      },
    })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(((await limited.json()) as { error: string }).error).toBe('TooManyRequestsError')
    expect((await fetchAs(reader.secretKey, '/api/public/v2/prompts/checked')).status).toBe(200)
    expect((await owner.call(apiKeyOperations.revoke, { params: { id: reader.id } })).status).toBe(204)
    expect((await fetchAs(reader.secretKey, '/api/public/v2/prompts/checked')).status).toBe(401)
  })

  it('lists prompt names with versions, labels, tags and both meta and pagination', async () => {
    await call('POST', '/api/public/v2/prompts', {
      body: { name: 'listed', prompt: 'x', tags: ['alpha'], config: { model: 'm1' }, labels: ['staging'] },
    })
    await call('POST', '/api/public/v2/prompts', {
      body: { name: 'listed', prompt: 'y', config: { model: 'm2' } },
    })
    const res = await call('GET', '/api/public/v2/prompts?name=listed')
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toEqual({
      data: [
        {
          name: 'listed',
          type: 'text',
          versions: [1, 2],
          // Sorted in the list, as Langfuse does.
          labels: ['latest', 'staging'],
          tags: ['alpha'],
          lastUpdatedAt: expect.any(String),
          lastConfig: { model: 'm2' },
        },
      ],
      meta: { page: 1, limit: 10, totalItems: 1, totalPages: 1 },
      pagination: { page: 1, limit: 10, totalItems: 1, totalPages: 1 },
    })
    const page = (await (await call('GET', '/api/public/v2/prompts?limit=1&page=2')).json()) as {
      data: unknown[]
      meta: { totalItems: number }
    }
    expect(page.data).toHaveLength(1)
    expect(page.meta.totalItems).toBeGreaterThanOrEqual(3)
  })

  it('keeps protected labels from keys, and a read key from writing (legacy route too)', async () => {
    const teamOwner = new TestClient(testApp)
    await teamOwner.signUp()
    const team = await teamOwner.call(teamOperations.create, { body: { name: 'Guarded' } })
    const teamId = team.body.id
    await teamOwner.call(promptLabelOperations.setProtectedLabels, {
      params: { teamId },
      body: { labels: ['production'] },
    })
    const teamKey = (
      await teamOwner.call(apiKeyOperations.create, { body: { name: 't', scope: 'read_write', teamId } })
    ).body
    const auth = keyPairAuthorization(teamKey)
    const post = (body: unknown) =>
      testApp.app.request('/api/public/v2/prompts', {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await post({ name: 'guarded', prompt: 'x', labels: ['staging'] })).status).toBe(201)
    const refused = await post({ name: 'guarded', prompt: 'y', labels: ['production'] })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({
      message: 'API keys never move the protected label "production"; a team admin moves it in the app',
      error: 'ForbiddenError',
    })
    // The team's admin moves it in the app.
    const prompts = await teamOwner.call(promptOperations.list, { query: { scope: 'team', teamId } })
    const prompt = prompts.body.items.find((p) => p.name === 'guarded')!
    const params = { id: prompt.id }
    const versions = await teamOwner.call(promptOperations.versions, { params })
    const moved = await teamOwner.call(promptOperations.setCurrentVersion, {
      params,
      body: { versionId: versions.body.items[0]!.id },
    })
    expect(moved.status).toBe(200)

    const reader = (await owner.call(apiKeyOperations.create, { body: { name: 'r', scope: 'read' } })).body
    const legacy = await testApp.app.request('/api/public/prompts', {
      method: 'POST',
      headers: {
        Authorization: keyPairAuthorization(reader),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ name: 'legacy', prompt: 'x', isActive: true }),
    })
    expect(legacy.status).toBe(403)
    const legacyWrite = await call('POST', '/api/public/prompts', {
      body: { name: 'legacy', prompt: 'x', isActive: true },
    })
    expect(legacyWrite.status).toBe(201)
    const legacyGet = await call('GET', '/api/public/prompts?name=legacy')
    expect(((await legacyGet.json()) as { labels: string[] }).labels).toEqual(['production', 'latest'])
  })
  it('lists labels moved together in the label history in the order they were moved (decision 0237)', async () => {
    const made = await createPromptAs(owner, { title: 'Moved together', body: 'x' })
    const moved = ['alpha', 'beta', 'gamma', 'delta', 'epsilon']
    const res = await call('PATCH', `/api/public/v2/prompts/${encodeURIComponent(made.name)}/versions/1`, {
      body: { newLabels: moved },
    })
    expect(res.status).toBe(200)
    // Moved in one transaction: on PGlite's millisecond clock their events could tie.
    const history = await owner.call(promptLabelOperations.history, { params: { id: made.id } })
    expect(history.body.items.map((event) => event.label)).toEqual([...moved].reverse().concat('production'))
  })
})
