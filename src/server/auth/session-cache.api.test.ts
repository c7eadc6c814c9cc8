import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accountOperations } from '../../domain/api/account.ts'
import { adminOperations } from '../../domain/api/admin.ts'
import { authOperations } from '../../domain/api/auth.ts'
import { type RuntimeCache, runtimeCacheOf } from '../cache/runtime-cache.ts'
import { sessions } from '../db/schema/index.ts'
import { DEFAULT_PASSWORD, TestClient, uniqueEmail } from '../testing/client.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'

/**
 * The signed-in session kept in memory (decision 0286): read from the database on a session's first
 * request, then from memory, until a write ends it or changes its user. Each check first makes sure
 * the session is kept (so a missed drop would answer from the old entry), then writes through the
 * app, then asks again at once: the writer's answer waits until this process has heard the write.
 * Notifications reach this app 50 ms late, as over a slow network: in-process they would otherwise
 * arrive before the writer's answer anyway, and a writer that did not wait would go unnoticed.
 */
const NOTIFICATION_DELAY_MS = 50
/** While set, notifications never reach the app: a listening connection dead without anyone noticing. */
let deaf = false
let testApp: TestApp
let cache: RuntimeCache
let globalAdmin: TestClient

beforeAll(async () => {
  testApp = await createTestApp(
    {},
    {
      // Timers of one delay fire in the order they were set: the notifications keep their order.
      listen: (listen) => (channel, onNotify, interruption) =>
        listen(
          channel,
          (payload) => {
            if (!deaf) setTimeout(() => onNotify(payload), NOTIFICATION_DELAY_MS)
          },
          interruption,
        ),
    },
  )
  cache = runtimeCacheOf(testApp.database.db)!
  await cache.ready
  globalAdmin = new TestClient(testApp)
  await globalAdmin.signUp(uniqueEmail('first')) // the installation's first account: global admin
})
afterAll(() => testApp.close())

async function tokensOf(client: TestClient): Promise<string[]> {
  const rows = await testApp.database.db
    .select({ token: sessions.token })
    .from(sessions)
    .where(eq(sessions.userId, client.user!.id))
  return rows.map((row) => row.token)
}

/** Asks who `client` is twice, and fails unless its session is then kept; answers who it is. */
async function keptAs(client: TestClient) {
  // A write made while nothing was kept does not wait for its notification: hear it first, or it
  // could arrive during the first request and keep that request's read out of the cache.
  await cache.heardAllCommitted()
  expect((await client.call(accountOperations.me, {})).status).toBe(200)
  const res = await client.call(accountOperations.me, {})
  expect(res.status).toBe(200)
  expect(await keptTokens(client)).not.toEqual([])
  return res.body
}

/** The tokens of `client`'s user whose sessions this process keeps. */
async function keptTokens(client: TestClient): Promise<string[]> {
  return (await tokensOf(client)).filter((token) => cache.session(token) !== undefined)
}

describe('the kept session', () => {
  it('is kept after its first request and answers as the database does', async () => {
    const client = await TestClient.signedUp(testApp)
    expect(await keptAs(client)).toEqual(client.user)
  })

  it('is refused at once after a sign-out, also to a copy of its cookie', async () => {
    const client = await TestClient.signedUp(testApp)
    const stolen = client.copy()
    await keptAs(stolen)
    const [token] = await tokensOf(client)
    expect((await client.post('/api/auth/sign-out')).status).toBe(200)
    // Dropped before the sign-out was answered, not some time after.
    expect(cache.session(token!)).toBeUndefined()
    expect((await stolen.call(accountOperations.me, {})).status).toBe(401)
  })

  it('shows a name changed through the profile on the next request', async () => {
    const client = await TestClient.signedUp(testApp)
    await keptAs(client)
    const update = await client.call(accountOperations.updateProfile, {
      body: { displayName: 'Kept no more' },
    })
    expect(update.status).toBe(200)
    expect(await keptTokens(client)).toEqual([])
    expect((await client.call(accountOperations.me, {})).body.name).toBe('Kept no more')
  })

  it('shows a global role granted by an admin on the user’s next request', async () => {
    const client = await TestClient.signedUp(testApp)
    expect((await keptAs(client)).globalRole).toBe('user')
    const granted = await globalAdmin.call(adminOperations.setRole, {
      params: { userId: client.user!.id },
      body: { role: 'global_admin' },
    })
    expect(granted.status).toBe(200)
    expect(await keptTokens(client)).toEqual([])
    expect((await client.call(accountOperations.me, {})).body.globalRole).toBe('global_admin')
    expect((await client.call(adminOperations.stats, {})).status).toBe(200)
  })

  it('ends every other session at once when the password is set by an admin', async () => {
    const email = uniqueEmail()
    const client = new TestClient(testApp)
    await client.signUp(email)
    const elsewhere = new TestClient(testApp)
    expect((await elsewhere.signIn(email, DEFAULT_PASSWORD)).status).toBe(200)
    await keptAs(elsewhere)
    await keptAs(client)
    const tokens = await tokensOf(client)
    expect(tokens).toHaveLength(2)
    const set = await globalAdmin.call(authOperations.adminSetPassword, {
      body: { email, newPassword: 'an entirely new passphrase' },
    })
    expect(set.status).toBe(200)
    expect(tokens.filter((token) => cache.session(token) !== undefined)).toEqual([])
    expect((await elsewhere.call(accountOperations.me, {})).status).toBe(401)
    expect((await client.call(accountOperations.me, {})).status).toBe(401)
  })

  it('refuses the session a re-sign-in replaced at once (its delete is not in a transaction of ours)', async () => {
    const client = await TestClient.signedUp(testApp)
    const previous = client.copy()
    await keptAs(previous)
    const [token] = await tokensOf(client)
    const again = await client.call(authOperations.reauthenticate, { body: { password: DEFAULT_PASSWORD } })
    expect(again.status).toBe(200)
    expect(cache.session(token!)).toBeUndefined()
    expect((await previous.call(accountOperations.me, {})).status).toBe(401)
    expect((await client.call(accountOperations.me, {})).status).toBe(200)
  })

  it('stops serving from memory once it hears nothing on its channel, and serves again once it hears', async () => {
    const client = await TestClient.signedUp(testApp)
    await keptAs(client)
    const [token] = await tokensOf(client)
    deaf = true
    try {
      // Nothing heard for longer than the check's interval: the next read starts a check, whose
      // fence is never heard.
      // A faked performance.now() starts near 0: move it a minute past the real one.
      const realNow = performance.now()
      vi.useFakeTimers({ toFake: ['performance'] })
      vi.advanceTimersByTime(realNow + 60_000)
      expect((await client.call(accountOperations.me, {})).status).toBe(200)
      vi.useRealTimers()
      await expect.poll(() => cache.isLive, { timeout: 10_000 }).toBe(false)
      expect(cache.session(token!)).toBeUndefined()
      // Read from the database now: a sign-out nobody heard of is seen at once.
      const elsewhere = client.copy()
      expect((await elsewhere.call(accountOperations.me, {})).status).toBe(200)
      await testApp.database.db.delete(sessions).where(eq(sessions.token, token!))
      expect((await elsewhere.call(accountOperations.me, {})).status).toBe(401)
    } finally {
      vi.useRealTimers()
      deaf = false
    }
    // Hearing again: reads check once more (after a check started while deaf has failed), and the
    // cache serves again.
    const other = await TestClient.signedUp(testApp)
    await expect
      .poll(
        async () => {
          expect((await other.call(accountOperations.me, {})).status).toBe(200)
          return cache.isLive
        },
        { timeout: 10_000 },
      )
      .toBe(true)
    await keptAs(other)
  })

  // Last: it signs everyone of this file out.
  it('drops every kept session when the sessions table is truncated (no row trigger fires for it)', async () => {
    const client = await TestClient.signedUp(testApp)
    await keptAs(client)
    await testApp.database.db.execute(sql`TRUNCATE sessions`)
    await cache.heardAllCommitted()
    expect(cache.entries).toBe(0)
    expect((await client.call(accountOperations.me, {})).status).toBe(401)
  })
})
