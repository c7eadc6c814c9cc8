import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiKey, CreatedApiKey } from '../../../domain/api-keys.ts'
import type { Page } from '../../../domain/cursor.ts'
import type { ErrorBody } from '../../../domain/errors.ts'
import type { PromptDetail, PromptSummary } from '../../../domain/prompts.ts'
import { apiKeys } from '../../db/schema/index.ts'
import { TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'
import { hashSecret } from './service.ts'

let testApp: TestApp
let owner: TestClient
let admin: TestClient
let member: TestClient
let teamId: string

beforeAll(async () => {
  testApp = await createTestApp()
  await new TestClient(testApp).signUp()
  owner = new TestClient(testApp)
  admin = new TestClient(testApp)
  member = new TestClient(testApp)
  await owner.signUp()
  const adminUser = await admin.signUp()
  const memberUser = await member.signUp()
  teamId = await insertTeam(testApp.database.db, 'Builders', [
    { userId: adminUser.id, role: 'admin' },
    { userId: memberUser.id },
  ])
})
afterAll(() => testApp.close())

async function createKey(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post<CreatedApiKey>('/api/v1/api-keys', { name: 'CI', ...body })
  expect(res.status).toBe(201)
  return res.body
}

/** A code client: no cookies, no Origin, only the key. */
function withKey(secret: string, method: string, path: string, body?: unknown) {
  return testApp.app.request(path, {
    method,
    headers: { Authorization: `Bearer ${secret}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
}

describe('API keys', () => {
  it('are created as a pk-/sk- pair whose secret is shown once and stored only as its hash', async () => {
    const key = await createKey(owner, { scope: 'read_write' })
    expect(key.publicKey).toMatch(/^pk-pf-/)
    expect(key.secretKey).toMatch(/^sk-pf-/)
    expect(key.secretHint).toBe(`sk-pf-…${key.secretKey.slice(-4)}`)
    expect(key).toMatchObject({ name: 'CI', scope: 'read_write', teamId: null, lastUsedAt: null })
    const [row] = await testApp.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id))
    expect(row?.secretHash).toBe(hashSecret(key.secretKey))
    expect(JSON.stringify(row)).not.toContain(key.secretKey)

    const list = await owner.get<Page<ApiKey>>('/api/v1/api-keys')
    expect(list.body.items.map((k) => k.id)).toContain(key.id)
    expect(JSON.stringify(list.body)).not.toContain(key.secretKey)
  })

  it('validate the name and scope', async () => {
    const res = await owner.post<ErrorBody>('/api/v1/api-keys', { name: ' ', scope: 'admin' })
    expect(res.status).toBe(400)
    expect(res.body.error.fields).toEqual({
      name: 'Name is required',
      scope: 'Scope must be read or read and write',
    })
  })

  it('authenticate /api/v1 prompt operations as Bearer, as the key’s owner, and stamp last used', async () => {
    const prompt = await createPromptAs(owner, { title: 'Keyed' })
    const key = await createKey(owner)
    const res = await withKey(key.secretKey, 'GET', `/api/v1/prompts/${prompt.id}`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as PromptDetail).name).toBe('keyed')
    expect(res.headers.get('X-RateLimit-Limit')).toBe(String(1000 * testApp.config.rateLimitMultiplier))
    expect(Number(res.headers.get('X-RateLimit-Remaining'))).toBeGreaterThan(0)
    expect(Number(res.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(Date.now() / 1000)
    const list = await owner.get<Page<ApiKey>>('/api/v1/api-keys')
    expect(list.body.items.find((k) => k.id === key.id)?.lastUsedAt).not.toBeNull()
  })

  it('a read key only reads; no key reaches anything but the prompt operations', async () => {
    const key = await createKey(owner, { scope: 'read' })
    const write = await withKey(key.secretKey, 'POST', '/api/v1/prompts', { title: 't', body: 'b' })
    expect(write.status).toBe(403)
    expect(((await write.json()) as ErrorBody).error.message).toBe('This API key may only read')
    const account = await withKey(key.secretKey, 'GET', '/api/v1/api-keys')
    expect(account.status).toBe(403)
    const writer = await createKey(owner, { scope: 'read_write' })
    const created = await withKey(writer.secretKey, 'POST', '/api/v1/prompts', {
      title: 'From code',
      body: 'b',
    })
    expect(created.status).toBe(201)
  })

  it('refuse a wrong or revoked secret with 401, at once', async () => {
    const key = await createKey(owner)
    expect((await withKey('sk-pf-wrong', 'GET', '/api/v1/prompts')).status).toBe(401)
    expect((await withKey(key.secretKey, 'GET', '/api/v1/prompts')).status).toBe(200)
    expect((await owner.delete(`/api/v1/api-keys/${key.id}`)).status).toBe(204)
    const revoked = await withKey(key.secretKey, 'GET', '/api/v1/prompts')
    expect(revoked.status).toBe(401)
    expect(((await revoked.json()) as ErrorBody).error.message).toBe('Invalid API key')
    const list = await owner.get<Page<ApiKey>>('/api/v1/api-keys')
    expect(list.body.items.map((k) => k.id)).not.toContain(key.id)
  })

  it('team keys are managed by team admins only, and serve the prompt API rather than /api/v1', async () => {
    const refused = await member.post<ErrorBody>('/api/v1/api-keys', { name: 'x', teamId })
    expect(refused.status).toBe(403)
    expect((await member.get(`/api/v1/api-keys?teamId=${teamId}`)).status).toBe(403)
    expect((await owner.get(`/api/v1/api-keys?teamId=${teamId}`)).status).toBe(404)
    const key = await createKey(admin, { teamId })
    expect(key.teamId).toBe(teamId)
    expect((await admin.get<Page<ApiKey>>(`/api/v1/api-keys?teamId=${teamId}`)).body.items[0]?.id).toBe(
      key.id,
    )
    expect((await admin.get<Page<ApiKey>>('/api/v1/api-keys')).body.items).toEqual([])
    expect((await withKey(key.secretKey, 'GET', '/api/v1/prompts')).status).toBe(403)
    // Someone else's key is not found, whoever asks.
    expect((await owner.delete(`/api/v1/api-keys/${key.id}`)).status).toBe(404)
    expect((await member.delete(`/api/v1/api-keys/${key.id}`)).status).toBe(403)
    expect((await admin.delete(`/api/v1/api-keys/${key.id}`)).status).toBe(204)
  })

  it('are rate limited per key with Retry-After and X-RateLimit-* headers', async () => {
    const key = await createKey(owner)
    const limit = 1000 * testApp.config.rateLimitMultiplier
    const call = () => withKey(key.secretKey, 'GET', '/api/v1/prompts')
    // The window has seen all but one of its requests (from other processes: this one reads the
    // row when it first checks the key, and then at each write of its own count).
    await testApp.database.db
      .update(apiKeys)
      .set({ windowCount: limit - 1 })
      .where(eq(apiKeys.id, key.id))
    const last = await call()
    expect(last.status).toBe(200)
    expect(last.headers.get('X-RateLimit-Remaining')).toBe('0')
    const limited = await call()
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(Number(limited.headers.get('Retry-After'))).toBeLessThanOrEqual(60)
    expect(limited.headers.get('X-RateLimit-Limit')).toBe(String(limit))
    expect(limited.headers.get('X-RateLimit-Remaining')).toBe('0')
    // Another key has its own window.
    const other = await createKey(owner)
    const fresh = await withKey(other.secretKey, 'GET', '/api/v1/prompts')
    expect(fresh.status).toBe(200)
    expect(((await fresh.json()) as Page<PromptSummary>).items.length).toBeGreaterThan(0)
  })
})

describe('the plan’s API access', () => {
  it('lets a trial create and use keys, and locks them once the space is on Free', async () => {
    const plansApp = await createTestApp({ plansEnabled: true })
    try {
      const user = new TestClient(plansApp)
      await user.signUp()
      const created = await user.post<CreatedApiKey>('/api/v1/api-keys', { name: 'Trial key' })
      expect(created.status).toBe(201)
      const bearer = { Authorization: `Bearer ${created.body.secretKey}` }
      expect(
        (await new TestClient(plansApp).request('GET', '/api/v1/prompts', { headers: bearer })).status,
      ).toBe(200)

      expect((await user.post('/api/v1/billing/plan', { plan: 'free' })).status).toBe(200)
      const refused = await user.post<ErrorBody>('/api/v1/api-keys', { name: 'Free key' })
      expect([refused.status, refused.body.error.code]).toEqual([403, 'plan_limit'])
      const locked = await new TestClient(plansApp).request<ErrorBody>('GET', '/api/v1/prompts', {
        headers: bearer,
      })
      expect([locked.status, locked.body.error.code]).toEqual([403, 'plan_limit'])
    } finally {
      await plansApp.close()
    }
  })
})
