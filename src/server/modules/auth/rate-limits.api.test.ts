import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ErrorBody } from '../../../domain/errors.ts'
import { DEFAULT_PASSWORD, TestClient } from '../../testing/client.ts'
import { exhaustRateLimit } from '../../testing/limits.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import type { LimitedAction } from './rate-limits.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp({ rateLimitMultiplier: 1 })
})
afterAll(() => testApp.close())

const NEW_PASSWORD = 'a brand new passphrase 42'

/** Each limited sign-in route with a valid body for `email` (the limit is checked after validation). */
const routes: [LimitedAction, string, (email: string) => Record<string, unknown>][] = [
  ['sign-in', '/api/v1/auth/sign-in', (email) => ({ email, password: DEFAULT_PASSWORD })],
  [
    'sign-up',
    '/api/v1/auth/sign-up',
    (email) => ({ email, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, acceptTerms: true }),
  ],
  ['code-send', '/api/v1/auth/code/send', (email) => ({ email })],
  ['code-verify', '/api/v1/auth/code/verify', (email) => ({ email, code: '123456' })],
  ['reset-request', '/api/v1/auth/password-reset', (email) => ({ email })],
  [
    'direct-reset',
    '/api/v1/auth/direct-reset',
    (email) => ({
      email,
      currentPassword: DEFAULT_PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    }),
  ],
]

const exhaust = (action: LimitedAction, who: (attempt: number) => { ip: string; account: string }) =>
  exhaustRateLimit(testApp.database.db, action, who)

let unique = 0
const next = () => ++unique
/** A client address no other attempt in this file has used. */
const freshIp = () => {
  const n = next()
  return `10.0.${Math.floor(n / 250)}.${n % 250}`
}

/** The rate limits of the security rules: every sign-in action, per client address and per account. */
describe.each(routes)('%s (%s)', (action, path, body) => {
  it('is limited per client address: 429 with Retry-After, whatever the account', async () => {
    const ip = freshIp()
    await exhaust(action, (attempt) => ({ ip, account: `spent-${next()}-${attempt}@example.com` }))
    const res = await new TestClient(testApp, { ip }).post<ErrorBody>(
      path,
      body(`fresh-${next()}@example.com`),
    )
    expect(res.status).toBe(429)
    expect(res.body.error.code).toBe('rate_limited')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

/** Sign-in and code checks count failures per account instead: failure-limits.api.test.ts. */
const limitedPerAccount = routes.filter(([action]) => action !== 'sign-in' && action !== 'code-verify')

describe.each(limitedPerAccount)('%s (%s)', (action, path, body) => {
  it('is limited per account (the address trimmed and lowercased), from any client address', async () => {
    const email = `limited-${next()}@example.com`
    await exhaust(action, () => ({ ip: freshIp(), account: email }))
    const fromElsewhere = new TestClient(testApp, { ip: freshIp() })
    const res = await fromElsewhere.post<ErrorBody>(path, body(`  ${email.toUpperCase()} `))
    expect(res.status).toBe(429)
    expect(res.body.error.code).toBe('rate_limited')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})
