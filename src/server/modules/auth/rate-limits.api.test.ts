import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authOperations } from '../../../domain/api/auth.ts'
import type { Operation } from '../../../domain/api/operation.ts'
import { DEFAULT_PASSWORD, errorOf, TestClient } from '../../testing/client.ts'
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
const routes: [LimitedAction, Operation, (email: string) => Record<string, unknown>][] = [
  ['sign-in', authOperations.signIn, (email) => ({ email, password: DEFAULT_PASSWORD })],
  [
    'sign-up',
    authOperations.signUp,
    (email) => ({ email, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, acceptTerms: true }),
  ],
  ['code-send', authOperations.sendCode, (email) => ({ email })],
  ['code-verify', authOperations.verifyCode, (email) => ({ email, code: '123456' })],
  ['reset-request', authOperations.requestPasswordReset, (email) => ({ email })],
  [
    'direct-reset',
    authOperations.directReset,
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
describe.each(routes)('%s', (action, operation, body) => {
  it('is limited per client address: 429 with Retry-After, whatever the account', async () => {
    const ip = freshIp()
    await exhaust(action, (attempt) => ({ ip, account: `spent-${next()}-${attempt}@example.com` }))
    const res = await new TestClient(testApp, { ip }).call(operation, {
      body: body(`fresh-${next()}@example.com`),
    })
    expect(res.status).toBe(429)
    expect(errorOf(res).code).toBe('rate_limited')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

/** Sign-in and code checks count failures per account instead: failure-limits.api.test.ts. */
const limitedPerAccount = routes.filter(([action]) => action !== 'sign-in' && action !== 'code-verify')

describe.each(limitedPerAccount)('%s', (action, operation, body) => {
  it('is limited per account (the address trimmed and lowercased), from any client address', async () => {
    const email = `limited-${next()}@example.com`
    await exhaust(action, () => ({ ip: freshIp(), account: email }))
    const fromElsewhere = new TestClient(testApp, { ip: freshIp() })
    const res = await fromElsewhere.call(operation, { body: body(`  ${email.toUpperCase()} `) })
    expect(res.status).toBe(429)
    expect(errorOf(res).code).toBe('rate_limited')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})
