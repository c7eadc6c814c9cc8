import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { planOperations } from '../../../domain/api/plans.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { apiKeys } from '../../db/schema/index.ts'
import { errorOf, keyClient, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'
import { hashSecret } from './service.ts'

let testApp: TestApp
let owner: TestClient
let admin: TestClient
let member: TestClient
let teamId: string

const asKey = (secret: string) => keyClient(testApp, `Bearer ${secret}`)

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
  const res = await client.call(apiKeyOperations.create, { body: { name: 'CI', ...body } })
  expect(res.status).toBe(201)
  return res.body
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

    const list = await owner.call(apiKeyOperations.list, {})
    expect(list.body.items.map((k) => k.id)).toContain(key.id)
    expect(JSON.stringify(list.body)).not.toContain(key.secretKey)
  })

  it('validate the name and scope', async () => {
    const res = await owner.callUnchecked(apiKeyOperations.create, { body: { name: ' ', scope: 'admin' } })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields).toEqual({
      name: 'Name is required',
      scope: 'Scope must be read or read and write',
    })
  })

  it('authenticate /api/v1 prompt operations as Bearer, as the key’s owner, and stamp last used', async () => {
    const prompt = await createPromptAs(owner, { title: 'Keyed' })
    const key = await createKey(owner)
    const res = await asKey(key.secretKey).call(promptOperations.get, { params: { id: prompt.id } })
    expect(res.status).toBe(200)
    expect(res.body.name).toBe('keyed')
    expect(res.headers.get('X-RateLimit-Limit')).toBe(String(1000 * testApp.config.rateLimitMultiplier))
    expect(Number(res.headers.get('X-RateLimit-Remaining'))).toBeGreaterThan(0)
    expect(Number(res.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(Date.now() / 1000)
    const list = await owner.call(apiKeyOperations.list, {})
    expect(list.body.items.find((k) => k.id === key.id)?.lastUsedAt).not.toBeNull()
  })

  it('a read key only reads; no key reaches anything but the prompt operations', async () => {
    const key = await createKey(owner, { scope: 'read' })
    const write = await asKey(key.secretKey).call(promptOperations.create, {
      body: { title: 't', body: 'b' },
    })
    expect(write.status).toBe(403)
    expect(errorOf(write).message).toBe('This API key may only read')
    const account = await asKey(key.secretKey).call(apiKeyOperations.list, {})
    expect(account.status).toBe(403)
    const writer = await createKey(owner, { scope: 'read_write' })
    const created = await asKey(writer.secretKey).call(promptOperations.create, {
      body: { title: 'From code', body: 'b' },
    })
    expect(created.status).toBe(201)
  })

  it('refuse a wrong or revoked secret with 401, at once', async () => {
    const key = await createKey(owner)
    expect((await asKey('sk-pf-wrong').call(promptOperations.list, {})).status).toBe(401)
    expect((await asKey(key.secretKey).call(promptOperations.list, {})).status).toBe(200)
    expect((await owner.call(apiKeyOperations.revoke, { params: { id: key.id } })).status).toBe(204)
    const revoked = await asKey(key.secretKey).call(promptOperations.list, {})
    expect(revoked.status).toBe(401)
    expect(errorOf(revoked).message).toBe('Invalid API key')
    const list = await owner.call(apiKeyOperations.list, {})
    expect(list.body.items.map((k) => k.id)).not.toContain(key.id)
  })

  it('team keys are managed by team admins only, and serve the prompt API rather than /api/v1', async () => {
    const refused = await member.call(apiKeyOperations.create, { body: { name: 'x', teamId } })
    expect(refused.status).toBe(403)
    expect((await member.call(apiKeyOperations.list, { query: { teamId } })).status).toBe(403)
    expect((await owner.call(apiKeyOperations.list, { query: { teamId } })).status).toBe(404)
    const key = await createKey(admin, { teamId })
    expect(key.teamId).toBe(teamId)
    expect((await admin.call(apiKeyOperations.list, { query: { teamId } })).body.items[0]?.id).toBe(key.id)
    expect((await admin.call(apiKeyOperations.list, {})).body.items).toEqual([])
    expect((await asKey(key.secretKey).call(promptOperations.list, {})).status).toBe(403)
    // Someone else's key is not found, whoever asks.
    expect((await owner.call(apiKeyOperations.revoke, { params: { id: key.id } })).status).toBe(404)
    expect((await member.call(apiKeyOperations.revoke, { params: { id: key.id } })).status).toBe(403)
    expect((await admin.call(apiKeyOperations.revoke, { params: { id: key.id } })).status).toBe(204)
  })

  it('are rate limited per key with Retry-After and X-RateLimit-* headers', async () => {
    const key = await createKey(owner)
    const limit = 1000 * testApp.config.rateLimitMultiplier
    const call = () => asKey(key.secretKey).call(promptOperations.list, {})
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
    const fresh = await asKey(other.secretKey).call(promptOperations.list, {})
    expect(fresh.status).toBe(200)
    expect(fresh.body.items.length).toBeGreaterThan(0)
  })
})

describe('the plan’s API access', () => {
  it('lets a trial create and use keys, and locks them once the space is on Free', async () => {
    const plansApp = await createTestApp({ plansEnabled: true })
    try {
      const user = new TestClient(plansApp)
      await user.signUp()
      const created = await user.call(apiKeyOperations.create, { body: { name: 'Trial key' } })
      expect(created.status).toBe(201)
      const bearer = { Authorization: `Bearer ${created.body.secretKey}` }
      expect((await new TestClient(plansApp).call(promptOperations.list, {}, bearer)).status).toBe(200)

      expect((await user.call(planOperations.choose, { body: { plan: 'free' } })).status).toBe(200)
      const refused = await user.call(apiKeyOperations.create, { body: { name: 'Free key' } })
      expect([refused.status, errorOf(refused).code]).toEqual([403, 'plan_limit'])
      const locked = await new TestClient(plansApp).call(promptOperations.list, {}, bearer)
      expect([locked.status, errorOf(locked).code]).toEqual([403, 'plan_limit'])
    } finally {
      await plansApp.close()
    }
  })
})
