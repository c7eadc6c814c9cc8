import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../../domain/api/account.ts'
import type { ErrorBody } from '../../../domain/errors.ts'
import { TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/**
 * Review item 1: better-auth's own limiter counted every client in one bucket per path (or by the
 * client-supplied X-Forwarded-For), so ~100 anonymous sign-outs in 10 s made sign-out answer 429
 * for everyone, and 3 Google sign-in starts blocked Google sign-in for the installation.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp({ rateLimitMultiplier: 1 })
})
afterAll(() => testApp.close())

/** better-auth's default budget for a path is 100 requests in 10 s; this is more. */
const FLOOD = 110

async function flood(
  path: string,
  body: unknown,
  headers: (i: number) => Record<string, string> = () => ({}),
) {
  const attacker = new TestClient(testApp, { ip: '198.51.100.66' })
  for (let i = 0; i < FLOOD; i++) await attacker.request('POST', path, { body, headers: headers(i) })
}

describe('ending a session cannot be denied', () => {
  it('sign-out ends the session after a flood of anonymous sign-outs', async () => {
    await flood('/api/auth/sign-out', {})
    const user = new TestClient(testApp, { ip: '192.0.2.10' })
    await user.signUp()
    const kept = user.copy()
    const res = await user.post('/api/auth/sign-out')
    expect(res.status).toBe(200)
    expect(user.hasSessionCookie()).toBe(false)
    // The session itself is gone, not only the browser's cookie.
    expect((await kept.call(accountOperations.me, {})).status).toBe(401)
  })

  it('sign-out works for a client on the flooding address too (nothing to gain from a limit there)', async () => {
    await flood('/api/auth/sign-out', {})
    const sameAddress = new TestClient(testApp, { ip: '198.51.100.66' })
    await sameAddress.signUp()
    expect((await sameAddress.post('/api/auth/sign-out')).status).toBe(200)
    expect((await sameAddress.call(accountOperations.me, {})).status).toBe(401)
  })

  it('"sign out other sessions" works after a flood of anonymous calls', async () => {
    await flood('/api/auth/revoke-other-sessions', {})
    const user = new TestClient(testApp, { ip: '192.0.2.11' })
    const email = (await user.signUp()).email
    const other = new TestClient(testApp, { ip: '192.0.2.12' })
    await other.signIn(email)
    const res = await user.post('/api/auth/revoke-other-sessions')
    expect(res.status).toBe(200)
    expect((await other.call(accountOperations.me, {})).status).toBe(401)
    expect((await user.call(accountOperations.me, {})).status).toBe(200)
  })
})

describe("better-auth's limiter counts per client", () => {
  const startGoogle = (client: TestClient, headers: Record<string, string> = {}) =>
    client.request<ErrorBody>('POST', '/api/auth/sign-in/social', {
      body: { provider: 'google', callbackURL: '/auth/callback', disableRedirect: true },
      headers,
    })

  it("one client's provider sign-in starts do not block another's", async () => {
    const attacker = new TestClient(testApp, { ip: '198.51.100.67' })
    let refused = false
    for (let i = 0; i < 5 && !refused; i++) refused = (await startGoogle(attacker)).status === 429
    expect(refused).toBe(true)
    const res = await startGoogle(new TestClient(testApp, { ip: '192.0.2.13' }))
    expect(res.status).not.toBe(429)
  })

  it('a client cannot escape its budget with made-up X-Forwarded-For addresses', async () => {
    const attacker = new TestClient(testApp, { ip: '198.51.100.68' })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      statuses.push((await startGoogle(attacker, { 'X-Forwarded-For': `203.0.113.${i + 1}` })).status)
    }
    expect(statuses).toContain(429)
  })
})
