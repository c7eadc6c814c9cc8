import { type OutgoingHttpHeaders, request } from 'node:http'
import { connect } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import {
  API_KEY_RATE_LIMIT,
  API_KEY_RATE_WINDOW_SECONDS,
  type CreatedApiKey,
} from '../../../domain/api-keys.ts'
import { createApp } from '../../app.ts'
import { createAuth } from '../../auth/auth.ts'
import { runtimeCacheOf } from '../../cache/runtime-cache.ts'
import { apiKeys } from '../../db/schema/index.ts'
import { createLogger } from '../../log.ts'
import { keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { listen } from '../../testing/listen.ts'
import { capturingLogger } from '../../testing/log.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { hashSecret } from '../api-keys/index.ts'

/**
 * The kept-fetch lane (decision 0279): a runtime fetch this process keeps everything for is
 * answered before Hono, with the route's very answer; everything else reaches the route as before.
 * Two servers share one app (one cache): `viaLane` as main.ts serves it, `viaRoute` with Hono alone,
 * so the two answers to one request can be compared.
 */
let testApp: TestApp
let viaLane: Awaited<ReturnType<typeof listen>>
let viaRoute: Awaited<ReturnType<typeof listen>>
let owner: TestClient
let key: CreatedApiKey
let offsetDays = 0
const { log, lines } = capturingLogger()
const now = () => new Date(Date.now() + offsetDays * 24 * 60 * 60 * 1000)
let limit: number

beforeAll(async () => {
  testApp = await createTestApp({ plansEnabled: true }, { now, log })
  limit = API_KEY_RATE_LIMIT * testApp.config.rateLimitMultiplier
  await runtimeCacheOf(testApp.database.db)!.ready
  viaLane = await listen(testApp)
  viaRoute = await listen(testApp, { lane: false })
  await new TestClient(testApp).signUp()
  owner = new TestClient(testApp)
  await owner.signUp()
  key = await newKey('lane')
  await write(key, { name: 'greeting', prompt: 'Hello {{name}}', labels: ['production', 'staging'] })
  // Over 1 KiB, so that a client accepting gzip gets it gzipped.
  await write(key, { name: 'long/one', prompt: 'A long prompt. '.repeat(100), labels: ['production'] })
})
afterAll(async () => {
  await viaLane?.close()
  await viaRoute?.close()
  await testApp.close()
})

async function newKey(name: string): Promise<CreatedApiKey> {
  return (await owner.call(apiKeyOperations.create, { body: { name, scope: 'read_write' } })).body
}

async function write(k: CreatedApiKey, body: Record<string, unknown>) {
  const res = await fetch(`${viaRoute.baseUrl}/api/public/v2/prompts`, {
    method: 'POST',
    headers: { Authorization: keyPairAuthorization(k), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status).toBe(201)
  await runtimeCacheOf(testApp.database.db)!.heardAllCommitted()
}

/** One fetch through a server; whether the lane answered it, its status, headers and text. */
async function fetchVia(
  server: typeof viaLane,
  path: string,
  headers: Record<string, string> = { Authorization: keyPairAuthorization(key) },
) {
  const before = server.answeredByLane
  const res = await fetch(`${server.baseUrl}${path}`, { headers })
  const text = await res.text()
  return {
    byLane: server.answeredByLane === before + 1,
    status: res.status,
    headers: Object.fromEntries(res.headers),
    text,
  }
}

/** A request line sent as it is (fetch() would resolve dots and drop a fragment), through the lane's server. */
function rawGet(target: string, headers: OutgoingHttpHeaders) {
  const before = viaLane.answeredByLane
  const { port } = new URL(viaLane.baseUrl)
  return new Promise<{ byLane: boolean; status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: target, headers, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () =>
        resolve({ byLane: viaLane.answeredByLane === before + 1, status: res.statusCode!, body }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

/** The headers two answers to one request may differ in: when, which request, and the count. */
function comparable(headers: Record<string, string>) {
  const { date, 'x-request-id': requestId, 'x-ratelimit-remaining': remaining, ...rest } = headers
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/)
  expect(Number(remaining)).toBeGreaterThanOrEqual(0)
  return rest
}

describe('the kept-fetch lane', () => {
  it("answers a kept fetch with the route's answer: body, status and every header", async () => {
    const path = '/api/public/v2/prompts/greeting?label=staging'
    const first = await fetchVia(viaLane, path)
    expect(first.byLane).toBe(false)
    const kept = await fetchVia(viaLane, path)
    expect(kept.byLane).toBe(true)
    const route = await fetchVia(viaRoute, path)
    expect(kept.status).toBe(200)
    expect(kept.text).toBe(route.text)
    expect(JSON.parse(kept.text)).toMatchObject({ name: 'greeting', prompt: 'Hello {{name}}', version: 1 })
    expect(comparable(kept.headers)).toEqual(comparable(route.headers))
    expect(kept.headers).toMatchObject({
      'cache-control': 'private, max-age=0, must-revalidate',
      'content-security-policy': expect.stringContaining("default-src 'self'"),
      'x-ratelimit-limit': String(limit),
    })
  })

  it('answers by version, gzipped when asked, and 304 to a matching If-None-Match, as the route does', async () => {
    for (const path of ['/api/public/v2/prompts/greeting?version=1', '/api/public/v2/prompts/long%2Fone']) {
      for (const encoding of ['gzip', 'identity']) {
        const headers = { Authorization: keyPairAuthorization(key), 'Accept-Encoding': encoding }
        await fetchVia(viaLane, path, headers)
        const kept = await fetchVia(viaLane, path, headers)
        const route = await fetchVia(viaRoute, path, headers)
        expect(kept.byLane).toBe(true)
        expect(kept.text).toBe(route.text)
        expect(comparable(kept.headers)).toEqual(comparable(route.headers))
        const revalidate = { ...headers, 'If-None-Match': kept.headers.etag! }
        const notModified = await fetchVia(viaLane, path, revalidate)
        const routeNotModified = await fetchVia(viaRoute, path, revalidate)
        expect(notModified).toMatchObject({ byLane: true, status: 304, text: '' })
        expect(comparable(notModified.headers)).toEqual(comparable(routeNotModified.headers))
      }
    }
    const long = await fetchVia(viaLane, '/api/public/v2/prompts/long%2Fone', {
      Authorization: keyPairAuthorization(key),
      'Accept-Encoding': 'gzip',
    })
    expect(long.headers['content-encoding']).toBe('gzip')
    expect(long.headers.etag).toMatch(/^W\//)
  })

  it('leaves every other request to the route', async () => {
    const path = '/api/public/v2/prompts/greeting'
    await fetchVia(viaLane, path)
    expect((await fetchVia(viaLane, path)).byLane).toBe(true)
    const other = await newKey('other')
    const cases: [string, Record<string, string>, number][] = [
      // A query the route has not parsed yet (then it has, and it is refused: never kept).
      [`${path}?label=production&version=1`, { Authorization: keyPairAuthorization(key) }, 400],
      // The public key of another key with this secret.
      [path, { Authorization: keyPairAuthorization({ ...key, publicKey: other.publicKey }) }, 401],
      [path, { Authorization: `Bearer ${key.secretKey}` }, 401],
      // A name with no prompt: its 404 is kept, and answered by the route.
      ['/api/public/v2/prompts/nothing', { Authorization: keyPairAuthorization(key) }, 404],
      [`${path}/`, { Authorization: keyPairAuthorization(key) }, 405],
      ['/api/public/v2/prompts/%E0%A4%A', { Authorization: keyPairAuthorization(key) }, 404],
    ]
    for (const [at, headers, status] of cases) {
      for (let i = 0; i < 2; i++) {
        const res = await fetchVia(viaLane, at, headers)
        expect({ at, byLane: res.byLane, status: res.status }).toEqual({ at, byLane: false, status })
      }
    }
    const head = await fetch(`${viaLane.baseUrl}${path}`, {
      method: 'HEAD',
      headers: { Authorization: keyPairAuthorization(key) },
    })
    expect(head.status).toBe(200)
  })

  it('counts a request answered from memory once in the cache’s hits, by the lane or by the route', async () => {
    const cache = runtimeCacheOf(testApp.database.db)!
    // A kept 404 is looked up by the lane, left to the route, and looked up there again.
    for (const [path, byLane] of [
      ['/api/public/v2/prompts/greeting', true],
      ['/api/public/v2/prompts/nothing', false],
    ] as const) {
      await fetchVia(viaLane, path)
      const hits = cache.hits
      expect((await fetchVia(viaLane, path)).byLane).toBe(byLane)
      expect(cache.hits).toBe(hits + 1)
    }
  })

  it("serves the writer's next fetch its write, and refuses a revoked key at once", async () => {
    const path = '/api/public/v2/prompts/greeting'
    await fetchVia(viaLane, path)
    expect(JSON.parse((await fetchVia(viaLane, path)).text).version).toBe(1)
    await write(key, { name: 'greeting', prompt: 'Hi {{name}}', labels: ['production'] })
    const moved = await fetchVia(viaLane, path)
    expect(JSON.parse(moved.text)).toMatchObject({ version: 2, prompt: 'Hi {{name}}' })
    expect((await fetchVia(viaLane, path)).byLane).toBe(true)

    const doomed = await newKey('doomed')
    const asDoomed = { Authorization: keyPairAuthorization(doomed) }
    await fetchVia(viaLane, path, asDoomed)
    expect((await fetchVia(viaLane, path, asDoomed)).byLane).toBe(true)
    expect((await owner.call(apiKeyOperations.revoke, { params: { id: doomed.id } })).status).toBe(204)
    expect(await fetchVia(viaLane, path, asDoomed)).toMatchObject({ byLane: false, status: 401 })
  })

  it('counts each request once in the key’s window, refused ones included', async () => {
    const counted = await newKey('counted')
    const asCounted = { Authorization: keyPairAuthorization(counted) }
    const path = '/api/public/v2/prompts/greeting'
    const remaining = async () =>
      Number((await fetchVia(viaLane, path, asCounted)).headers['x-ratelimit-remaining'])
    const start = await remaining()
    expect(await remaining()).toBe(start - 1)
    // Past the trial the plan refuses the key: the route answers, and counts each refusal once.
    offsetDays = 15
    try {
      for (let i = 0; i < 3; i++) {
        expect(await fetchVia(viaLane, path, asCounted)).toMatchObject({ byLane: false, status: 403 })
      }
    } finally {
      offsetDays = 0
    }
    expect(await remaining()).toBe(start - 5)
    // A window used up (here by other processes): the lane leaves the request uncounted, and the
    // route counts it and answers 429.
    const spent = await newKey('spent')
    await testApp.database.db
      .update(apiKeys)
      .set({ windowCount: limit - 1 })
      .where(eq(apiKeys.id, spent.id))
    const asSpent = { Authorization: keyPairAuthorization(spent) }
    expect(await fetchVia(viaLane, path, asSpent)).toMatchObject({ byLane: false, status: 200 })
    for (let i = 0; i < 2; i++) {
      const refused = await fetchVia(viaLane, path, asSpent)
      expect(refused).toMatchObject({ byLane: false, status: 429 })
      expect(refused.headers).toMatchObject({
        'x-ratelimit-remaining': '0',
        'x-ratelimit-limit': String(limit),
      })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    }
  })

  it('keeps a key only once a request of it passed, so that a request past the window counts once', async () => {
    const cache = runtimeCacheOf(testApp.database.db)!
    const path = '/api/public/v2/prompts/greeting'
    // The answer is kept: only the key decides whether the lane answers.
    await fetchVia(viaLane, path)
    expect((await fetchVia(viaLane, path)).byLane).toBe(true)
    const spent = await newKey('wrong pair')
    const wrongPair = {
      Authorization: keyPairAuthorization({ publicKey: key.publicKey, secretKey: spent.secretKey }),
    }
    expect(await fetchVia(viaLane, path, wrongPair)).toMatchObject({ byLane: false, status: 401 })
    expect(cache.key(hashSecret(spent.secretKey))).toBeUndefined()
    // Other processes use the window up. Had the refused request kept the key, uncounted here, the
    // lane would count this request first, find the window spent and leave it to the route, which
    // would count it again.
    await testApp.database.db.update(apiKeys).set({ windowCount: limit }).where(eq(apiKeys.id, spent.id))
    const asSpent = { Authorization: keyPairAuthorization(spent) }
    expect(await fetchVia(viaLane, path, asSpent)).toMatchObject({ byLane: false, status: 429 })
    // The next window starts from this process's count: a second count of that request would
    // still be pending, and taken into it.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + (API_KEY_RATE_WINDOW_SECONDS + 1) * 1000)
      const next = await fetchVia(viaLane, path, asSpent)
      expect(next).toMatchObject({ byLane: true, status: 200 })
      expect(next.headers['x-ratelimit-remaining']).toBe(String(limit - 1))
    } finally {
      vi.useRealTimers()
    }
  })

  it('leaves a key to the route uncounted when the requests it counted carry its next window past the limit', async () => {
    // A process of this app whose keys have a limit of 3, so that the requests it counted and has
    // not written yet can pass it.
    const config = { ...testApp.config, rateLimitMultiplier: 0.003 }
    const { database } = testApp
    const quiet = createLogger('silent')
    const small = await listen({
      ...testApp,
      ...createApp({
        config,
        database,
        auth: createAuth({ config, db: database.db, log: quiet }),
        log: quiet,
      }),
    })
    const k = await newKey('small limit')
    const asK = { Authorization: keyPairAuthorization(k) }
    const path = '/api/public/v2/prompts/greeting'
    // With the clock stopped no count is written: the refused requests stay counted here only.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) statuses.push((await fetchVia(small, path, asK)).status)
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      // A new window, which the five requests counted here and not written yet are taken into.
      vi.setSystemTime(Date.now() + (API_KEY_RATE_WINDOW_SECONDS + 1) * 1000)
      expect(await fetchVia(small, path, asK)).toMatchObject({ byLane: false, status: 429 })
      // And the next: a second count of the request before would still be pending here.
      vi.setSystemTime(Date.now() + (API_KEY_RATE_WINDOW_SECONDS + 1) * 1000)
      const next = await fetchVia(small, path, asK)
      expect(next).toMatchObject({ byLane: true, status: 200 })
      expect(next.headers['x-ratelimit-remaining']).toBe('2')
    } finally {
      vi.useRealTimers()
      await small.close()
    }
  })

  it('leaves to the route the request lines the adapter rewrites or refuses, and never keeps a query cut at a #', async () => {
    await write(key, { name: 'split', prompt: 'production text', labels: ['production'] })
    await write(key, { name: 'split', prompt: 'staging text', labels: ['staging'] })
    await write(key, { name: '..', prompt: 'dots', labels: ['production'] })
    const auth = { Authorization: keyPairAuthorization(key), Host: 'localhost' }
    // Kept first, so that a lane taking these requests would answer them.
    for (const target of ['/api/public/v2/prompts/split?label=staging', '/api/public/prompts?name=..']) {
      await rawGet(target, auth)
    }
    expect(await rawGet('/api/public/v2/prompts/split?label=staging', auth)).toMatchObject({ byLane: true })
    // Hono parses the query of this line as empty: had it been kept as `label=staging`, later
    // fetches of staging would have been answered with production. No key is needed to send it.
    const unkeyed = {
      Authorization: `Basic ${Buffer.from('pk-lf-x:sk-lf-y').toString('base64')}`,
      Host: 'localhost',
    }
    expect((await rawGet('/api/public/v2/prompts/split#?label=staging', unkeyed)).status).toBe(401)
    const staging = await rawGet('/api/public/v2/prompts/split?label=staging', auth)
    expect(JSON.parse(staging.body)).toMatchObject({ prompt: 'staging text' })
    for (const [target, headers] of [
      ['/api/public/v2/prompts/split#x?label=staging', auth],
      ['/api/public/v2/prompts/..', auth],
      ['/api/public/v2/prompts/%2e%2e', auth],
      ['/api/public/v2/prompts/sp\\lit?label=staging', auth],
      ['/api/public/v2/prompts/split?label=staging', { ...auth, Host: 'a b' }],
      ['/api/public/v2/prompts/split?label=staging', { ...auth, Host: 'Localhost' }],
      // Two lines: the route reads them joined, the lane would read the first.
      [
        '/api/public/v2/prompts/split?label=staging',
        { ...auth, Authorization: [auth.Authorization, auth.Authorization] },
      ],
    ] as [string, OutgoingHttpHeaders][]) {
      const res = await rawGet(target, headers)
      expect({ target, host: headers.Host, byLane: res.byLane }).toEqual({
        target,
        host: headers.Host,
        byLane: false,
      })
      expect(res.body).not.toContain('dots')
    }
  })

  it('refuses a request without a Host header, as the production server does (no default host)', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      // HTTP/1.0: Node itself refuses an HTTP/1.1 request without Host; this one reaches the adapter.
      const socket = connect(Number(new URL(viaLane.baseUrl).port), '127.0.0.1', () => {
        socket.end(
          `GET /api/public/v2/prompts/greeting HTTP/1.0\r\nAuthorization: ${keyPairAuthorization(key)}\r\n\r\n`,
        )
      })
      let text = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk: string) => {
        text += chunk
      })
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
  })

  it('closes the connection of an answer written while the process shuts down', async () => {
    const closingApp = await createTestApp({}, { closing: () => true })
    const server = await listen(closingApp)
    try {
      const user = new TestClient(closingApp)
      await user.signUp()
      const closingKey = (
        await user.call(apiKeyOperations.create, { body: { name: 'closing', scope: 'read_write' } })
      ).body
      const path = '/api/public/v2/prompts/bye'
      const headers = { Authorization: keyPairAuthorization(closingKey), 'Content-Type': 'application/json' }
      const created = await fetch(`${server.baseUrl}/api/public/v2/prompts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'bye', prompt: 'x', labels: ['production'] }),
      })
      expect(created.status).toBe(201)
      await runtimeCacheOf(closingApp.database.db)!.heardAllCommitted()
      await fetch(`${server.baseUrl}${path}`, { headers })
      const before = server.answeredByLane
      const res = await fetch(`${server.baseUrl}${path}`, { headers })
      expect(server.answeredByLane).toBe(before + 1)
      expect(res.status).toBe(200)
      expect(res.headers.get('connection')).toBe('close')
    } finally {
      await server.close()
      await closingApp.close()
    }
  })

  it("answers an error after counting the request with the route's 500, counted once, and logs it", async () => {
    // A process of this app whose answer fails once the request is counted (its shutdown flag
    // throws), so that the lane must answer the request itself: the route would count it again.
    let failing = false
    const { database, config } = testApp
    const failed = capturingLogger()
    const server = await listen({
      ...testApp,
      ...createApp({
        config,
        database,
        auth: createAuth({ config, db: database.db, log: failed.log }),
        log: failed.log,
        now,
        closing: () => {
          if (failing) throw new Error('closing flag unreadable at /srv/secret')
          return false
        },
      }),
    })
    try {
      const k = await newKey('fails after counting')
      const asK = { Authorization: keyPairAuthorization(k) }
      const path = '/api/public/v2/prompts/greeting'
      const first = await fetchVia(server, path, asK)
      expect(first).toMatchObject({ byLane: false, status: 200 })
      const left = Number(first.headers['x-ratelimit-remaining'])
      failing = true
      const answer = await fetchVia(server, path, asK).finally(() => {
        failing = false
      })
      expect(answer).toMatchObject({ byLane: true, status: 500 })
      expect(JSON.parse(answer.text)).toEqual({
        message: 'Internal Server Error',
        error: 'InternalServerError',
      })
      expect(answer.headers).toMatchObject({
        'content-type': 'application/json',
        'cache-control': 'no-store',
        vary: 'Accept-Encoding',
        'content-security-policy': expect.stringContaining("default-src 'self'"),
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(left - 1),
      })
      const requestId = answer.headers['x-request-id']
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/)
      // Counted once: the route's next answer finds one more request gone, not two.
      const next = await fetchVia(viaRoute, path, asK)
      expect(next.headers['x-ratelimit-remaining']).toBe(String(left - 2))
      const errors = failed.lines.filter((line) => line.level === 'error')
      expect(errors.map((line) => [line.message, line.fields.requestId])).toEqual([
        ['unhandled error', requestId],
      ])
      expect(String(errors[0]!.fields.err)).toContain('closing flag unreadable')
      expect(
        failed.lines.filter((line) => line.message === 'request').map((line) => line.fields.status),
      ).toEqual([200, 500])
    } finally {
      await server.close()
    }
  })

  it("writes the route's log line", async () => {
    const path = '/api/public/v2/prompts/greeting?label=staging'
    await fetchVia(viaLane, path)
    lines.length = 0
    expect((await fetchVia(viaLane, path)).byLane).toBe(true)
    await fetchVia(viaRoute, path)
    const logged = lines.filter((line) => line.message === 'request').map((line) => line.fields)
    expect(logged).toHaveLength(2)
    const shape = ({ ms, requestId, ...rest }: Record<string, unknown>) => {
      expect(typeof ms).toBe('number')
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/)
      return rest
    }
    expect(shape(logged[0]!)).toEqual(shape(logged[1]!))
    expect(logged[0]).toMatchObject({ method: 'GET', path: '/api/public/v2/prompts/greeting', status: 200 })
  })
})
