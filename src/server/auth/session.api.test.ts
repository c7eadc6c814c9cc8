import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../domain/api/account.ts'
import { authOperations } from '../../domain/api/auth.ts'
import { operationUrl } from '../../domain/api/operation.ts'
import { runtimeCacheOf } from '../cache/runtime-cache.ts'
import { sessions } from '../db/schema/index.ts'
import { betterAuthContext, betterAuthStorageNames, ScopedAsyncLocalStorage } from '../scoped-context.ts'
import { DEFAULT_PASSWORD, uniqueEmail } from '../testing/client.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts'

/**
 * Reading the session cookie: the common case is answered without better-auth (one statement,
 * see auth/session.ts); every edge must still behave as better-auth makes it behave.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

const DAY = 24 * 60 * 60 * 1000

/** Signs up and answers the session cookie (`name=value`) and the session's token. */
async function signedUp(): Promise<{ cookie: string; token: string }> {
  const res = await testApp.app.request(operationUrl(authOperations.signUp.spec), {
    method: 'POST',
    headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: uniqueEmail('session'),
      password: DEFAULT_PASSWORD,
      confirmPassword: DEFAULT_PASSWORD,
      acceptTerms: true,
    }),
  })
  expect(res.status).toBe(201)
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.includes('session_token'))!
  const token = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)).split('.')[0]!
  return { cookie, token }
}

const me = (cookie: string) =>
  testApp.app.request(operationUrl(accountOperations.me.spec), {
    headers: { Cookie: cookie, Origin: TEST_ORIGIN },
  })

async function moveSession(token: string, change: { expiresInMs?: number; createdAgoMs?: number }) {
  const now = Date.now()
  await testApp.database.db
    .update(sessions)
    .set({
      ...(change.expiresInMs !== undefined && { expiresAt: new Date(now + change.expiresInMs) }),
      ...(change.createdAgoMs !== undefined && { createdAt: new Date(now - change.createdAgoMs) }),
    })
    .where(eq(sessions.token, token))
  // Written behind the app's back: its next request must not find the session as it kept it.
  await runtimeCacheOf(testApp.database.db)!.heardAllCommitted()
}

/** The session of `cookie` is refused, and the answer clears its cookie. */
async function expectEndedWithCookieCleared(cookie: string) {
  const res = await me(cookie)
  expect(res.status).toBe(401)
  expect(res.headers.getSetCookie().some((c) => /session_token=;|max-age=0/i.test(c))).toBe(true)
}

const sessionRow = async (token: string) =>
  (await testApp.database.db.select().from(sessions).where(eq(sessions.token, token)))[0]

describe('the session cookie', () => {
  it('signs a fresh session in without touching its cookie', async () => {
    const { cookie } = await signedUp()
    const res = await me(cookie)
    expect(res.status).toBe(200)
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it('refuses a token whose signature was changed, and a token without one', async () => {
    const { cookie } = await signedUp()
    const [name, value] = [
      cookie.slice(0, cookie.indexOf('=')),
      decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)),
    ]
    const [token, signature] = value.split('.') as [string, string]
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
    expect((await me(`${name}=${encodeURIComponent(`${token}.${flipped}`)}`)).status).toBe(401)
    expect((await me(`${name}=${token}`)).status).toBe(401)
    expect((await me(cookie)).status).toBe(200)
  })

  it('refuses a changed signature of a token whose correct cookie was accepted before, and a signed-out one', async () => {
    const { cookie } = await signedUp()
    const name = cookie.slice(0, cookie.indexOf('='))
    const [token, signature] = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)).split('.') as [
      string,
      string,
    ]
    // Accepted twice: the second time its signature is known to be correct.
    expect((await me(cookie)).status).toBe(200)
    expect((await me(cookie)).status).toBe(200)
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
    expect((await me(`${name}=${encodeURIComponent(`${token}.${flipped}`)}`)).status).toBe(401)
    await testApp.database.db.delete(sessions).where(eq(sessions.token, token))
    await runtimeCacheOf(testApp.database.db)!.heardAllCommitted()
    expect((await me(cookie)).status).toBe(401)
  })

  it('pushes the expiry out (and re-sends the cookie) once a day of use has passed', async () => {
    const { cookie, token } = await signedUp()
    await moveSession(token, { expiresInMs: 5 * DAY })
    const res = await me(cookie)
    expect(res.status).toBe(200)
    expect(res.headers.getSetCookie().some((c) => c.includes('session_token'))).toBe(true)
    const row = await sessionRow(token)
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * DAY)
  })

  it('ends an expired session and clears its cookie', async () => {
    const { cookie, token } = await signedUp()
    await moveSession(token, { expiresInMs: -1000 })
    await expectEndedWithCookieCleared(cookie)
  })

  it('ends a session past the absolute lifetime however recently it was used', async () => {
    const { cookie, token } = await signedUp()
    await moveSession(token, { createdAgoMs: 31 * DAY })
    expect((await me(cookie)).status).toBe(401)
    expect(await sessionRow(token)).toBeUndefined()
  })

  it('reads a Cookie header it has seen before by the same rules: other cookies around it, then expiry', async () => {
    const { cookie, token } = await signedUp()
    // Known from here on: the token is taken from memory, and the session is kept after its first read.
    expect((await me(cookie)).status).toBe(200)
    expect((await me(cookie)).status).toBe(200)
    expect((await me(`theme=dark; ${cookie}; sidebar=1`)).status).toBe(200)
    await moveSession(token, { expiresInMs: -1000 })
    await expectEndedWithCookieCleared(cookie)
  })

  it('signs out once the deletion of the session row is heard, even when the row was deleted behind the app', async () => {
    const { cookie, token } = await signedUp()
    expect((await me(cookie)).status).toBe(200)
    expect((await me(cookie)).status).toBe(200)
    await testApp.database.db.execute(sql`delete from sessions where token = ${token}`)
    // The kept session goes with the deletion's notification (decision 0286).
    await runtimeCacheOf(testApp.database.db)!.heardAllCommitted()
    expect((await me(cookie)).status).toBe(401)
  })
})

describe("better-auth's context storages", () => {
  it('are scoped: after a sign-up and an expired session read, none of them is left running', async () => {
    const { cookie, token } = await signedUp()
    await moveSession(token, { expiresInMs: -1000 })
    expect((await me(cookie)).status).toBe(401)
    const context = betterAuthContext()
    for (const name of betterAuthStorageNames) {
      const storage = context[name]
      expect(storage, name).toBeInstanceOf(ScopedAsyncLocalStorage)
      expect((storage as ScopedAsyncLocalStorage<unknown>).running, name).toBe(0)
    }
  })
})
