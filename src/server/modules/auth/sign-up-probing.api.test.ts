import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authOperations } from '../../../domain/api/auth.ts'
import { DEFAULT_PASSWORD, errorOf, TestClient, uniqueEmail } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/**
 * Review item 6 (decision 0007): sign-up answers 'already registered' for an existing address, as
 * the spec wants, so probing for registered addresses must be rate limited per client and per
 * address like sign-in.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp({ rateLimitMultiplier: 1 })
})
afterAll(() => testApp.close())

const signUp = (client: TestClient, email: string) =>
  client.call(authOperations.signUp, {
    body: { email, password: DEFAULT_PASSWORD, confirmPassword: DEFAULT_PASSWORD, acceptTerms: true },
  })

describe('probing sign-up for registered addresses', () => {
  it('says so for a registered address (the spec message)', async () => {
    const email = uniqueEmail('taken')
    await new TestClient(testApp, { ip: '192.0.2.1' }).signUp(email)
    const res = await signUp(new TestClient(testApp, { ip: '192.0.2.2' }), email)
    expect(res.status).toBe(409)
    expect(errorOf(res).message).toBe('This email address is already registered')
  })

  it('is refused after 10 tries an hour from one client, answered or not', async () => {
    const prober = new TestClient(testApp, { ip: '198.51.100.9' })
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) statuses.push((await signUp(prober, `probe-${i}@example.com`)).status)
    expect(statuses.slice(0, 10).every((status) => status !== 429)).toBe(true)
    expect(statuses[10]).toBe(429)
  })

  it('is refused after 5 tries an hour for one address, from any client', async () => {
    const email = uniqueEmail('probed')
    await new TestClient(testApp, { ip: '192.0.2.3' }).signUp(email)
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      statuses.push((await signUp(new TestClient(testApp, { ip: `203.0.113.${i + 1}` }), email)).status)
    }
    expect(statuses).toEqual([409, 409, 409, 409, 429])
  })
})
