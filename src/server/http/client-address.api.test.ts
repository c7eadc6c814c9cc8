import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../domain/api/account.ts'
import { authOperations } from '../../domain/api/auth.ts'
import type { SessionSummary } from '../../domain/auth.ts'
import { queryRows } from '../db/rows.ts'
import { TestClient, uniqueEmail } from '../testing/client.ts'
import { exhaustRateLimit } from '../testing/limits.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { parseTrustProxy } from '../trust-proxy.ts'

/**
 * Review items 4 and 10: one client address for every limit, the session's record and failed
 * sign-ins: the TCP peer, or behind TRUST_PROXY what the trusted proxies report; IPv6 by /64.
 */
let direct: TestApp
let proxied: TestApp
beforeAll(async () => {
  direct = await createTestApp({ rateLimitMultiplier: 1 })
  proxied = await createTestApp({ rateLimitMultiplier: 1, trustProxy: parseTrustProxy('1') })
})
afterAll(async () => {
  await direct.close()
  await proxied.close()
})

const PROXY = '10.0.0.1'

async function currentSession(client: TestClient): Promise<SessionSummary> {
  const res = await client.call(accountOperations.sessions, {})
  return res.body.items.find((item) => item.current)!
}

async function signIn(client: TestClient, email: string, headers: Record<string, string>) {
  return client.call(
    authOperations.signIn,
    { body: { email, password: 'correct horse battery staple' } },
    headers,
  )
}

describe("the session's recorded address and user agent (item 10)", () => {
  it('without TRUST_PROXY are the TCP peer, not what X-Forwarded-For claims', async () => {
    const email = uniqueEmail('recorded')
    await new TestClient(direct).signUp(email)
    const client = new TestClient(direct, { ip: '192.0.2.20' })
    const res = await signIn(client, email, { 'X-Forwarded-For': '6.6.6.6', 'User-Agent': 'Browser/1.0' })
    expect(res.status).toBe(200)
    expect(await currentSession(client)).toMatchObject({ ipAddress: '192.0.2.20', userAgent: 'Browser/1.0' })
  })

  it('behind a trusted proxy are the client the proxy reports', async () => {
    const email = uniqueEmail('recorded')
    await new TestClient(proxied).signUp(email)
    const client = new TestClient(proxied, { ip: PROXY })
    await signIn(client, email, { 'X-Forwarded-For': '6.6.6.6, 203.0.113.51' })
    expect((await currentSession(client)).ipAddress).toBe('203.0.113.51')
  })

  it('is what failed sign-ins record too', async () => {
    const email = uniqueEmail('failed')
    await new TestClient(proxied).signUp(email)
    const client = new TestClient(proxied, { ip: PROXY })
    await client.call(
      authOperations.signIn,
      { body: { email, password: 'not the password at all' } },
      { 'X-Forwarded-For': '203.0.113.52' },
    )
    const rows = await queryRows<{ ip: string }>(
      proxied.database.db,
      sql`SELECT ip FROM failed_sign_ins WHERE email = ${email}`,
    )
    expect(rows).toEqual([{ ip: '203.0.113.52' }])
  })
})

describe('per-address limits (item 4)', () => {
  const attempt = (app: TestApp, ip: string, headers: Record<string, string> = {}) =>
    signIn(new TestClient(app, { ip }), uniqueEmail('limited'), headers)

  it('behind a trusted proxy count each client, not the proxy', async () => {
    await exhaustRateLimit(proxied.database.db, 'sign-in', (n) => ({
      ip: '203.0.113.60',
      account: `spent-${n}@example.com`,
    }))
    expect((await attempt(proxied, PROXY, { 'X-Forwarded-For': '203.0.113.60' })).status).toBe(429)
    expect((await attempt(proxied, PROXY, { 'X-Forwarded-For': '203.0.113.61' })).status).not.toBe(429)
  })

  it('without TRUST_PROXY ignore X-Forwarded-For: a client cannot pose as many', async () => {
    await exhaustRateLimit(direct.database.db, 'sign-in', (n) => ({
      ip: '198.51.100.70',
      account: `spent-${n}@example.com`,
    }))
    const res = await attempt(direct, '198.51.100.70', { 'X-Forwarded-For': '203.0.113.62' })
    expect(res.status).toBe(429)
  })

  it('count IPv6 clients by their /64', async () => {
    await exhaustRateLimit(direct.database.db, 'sign-in', (n) => ({
      ip: '2001:db8:1:1::1',
      account: `spent-${n}@example.com`,
    }))
    expect((await attempt(direct, '2001:db8:1:1:ffff::2')).status).toBe(429)
    expect((await attempt(direct, '2001:db8:1:2::1')).status).not.toBe(429)
  })
})
