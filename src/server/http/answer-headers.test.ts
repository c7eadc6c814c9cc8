import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { secureHeaders } from 'hono/secure-headers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../log.ts'
import { apiAnswers } from './api-answers.ts'
import { requestContext } from './context.ts'
import type { AppEnv } from './env.ts'
import { jsonAnswer, jsonText } from './json.ts'
import { secureHeadersOptions, securityHeaderRecord, securityHeaders } from './security.ts'

// The JSON answers built with plain headers, through the real Node adapter (whose own Response
// takes the record as it is), against the answers Hono builds with its Headers.
const APP_URL = 'https://promptfolio.example'
const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, text: 'some text to compress' })) }

function testApp() {
  const app = new Hono<AppEnv>()
  app.use('*', requestContext(createLogger('silent')))
  app.use('*', securityHeaders(APP_URL))
  app.use('/api/*', apiAnswers())
  // A middleware that adds a cookie once the answer exists, as the session's renewal does.
  app.use('/api/renewed', async (c, next) => {
    await next()
    c.res.headers.append('Set-Cookie', 'renewed=1; Path=/')
  })
  app.get('/api/plain', (c) => jsonAnswer(c, { ok: true }))
  app.get('/api/text', (c) => c.text('not JSON'))
  app.get('/api/limited', (c) => {
    c.header('X-RateLimit-Limit', '60')
    c.header('X-RateLimit-Remaining', '59')
    c.header('X-Gone', 'soon')
    c.header('X-Gone', undefined)
    return jsonAnswer(c, { ok: true }, 429, { 'Retry-After': '7' })
  })
  app.get('/api/one-cookie', (c) => {
    c.header('Set-Cookie', 'a=1; Path=/', { append: true })
    return jsonAnswer(c, { ok: true })
  })
  app.get('/api/two-cookies', (c) => {
    c.header('Set-Cookie', 'a=1; Path=/', { append: true })
    c.header('Set-Cookie', 'b=2; Path=/', { append: true })
    return jsonAnswer(c, { ok: true })
  })
  app.get('/api/renewed', (c) => {
    c.header('Set-Cookie', 'a=1; Path=/', { append: true })
    return jsonAnswer(c, { ok: true })
  })
  app.get('/api/tagged', (c) =>
    jsonText(c, JSON.stringify(big), 200, { ETag: '"v1"', 'Cache-Control': 'private, max-age=0' }),
  )
  return app
}

let server: ReturnType<typeof serve>
let base: string
beforeAll(async () => {
  server = serve({ fetch: testApp().fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const get = (path: string, init?: RequestInit) => fetch(`${base}${path}`, init)

describe('JSON answers with plain headers', () => {
  it('carry the security headers, the request id and the API defaults', async () => {
    const res = await get('/api/plain')
    expect(await res.json()).toEqual({ ok: true })
    for (const [name, value] of Object.entries(securityHeaderRecord(APP_URL))) {
      expect(res.headers.get(name), name).toBe(value)
    }
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('content-length')).toBe('11')
  })

  it('carry the very security headers Hono sets on any other answer', async () => {
    const hono = new Hono()
    hono.use('*', secureHeaders(secureHeadersOptions(APP_URL)))
    hono.get('/', (c) => c.text('x'))
    const expected = Object.fromEntries(
      [...(await hono.request('/')).headers].filter(([name]) => name !== 'content-type'),
    )
    expect(securityHeaderRecord(APP_URL)).toEqual(expected)
    const other = await get('/api/text')
    const plain = await get('/api/plain')
    for (const name of Object.keys(expected)) {
      expect(plain.headers.get(name), name).toBe(other.headers.get(name))
    }
  })

  it('keep the headers set before them (rate limits), their own (Retry-After) and a removal', async () => {
    const res = await get('/api/limited')
    expect(res.status).toBe(429)
    expect(res.headers.get('x-ratelimit-limit')).toBe('60')
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59')
    expect(res.headers.get('retry-after')).toBe('7')
    expect(res.headers.has('x-gone')).toBe(false)
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
  })

  it('keep a Set-Cookie set before them, and two as two lines', async () => {
    expect((await get('/api/one-cookie')).headers.getSetCookie()).toEqual(['a=1; Path=/'])
    const two = await get('/api/two-cookies')
    expect(two.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/'])
    expect(two.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(two.headers.get('cache-control')).toBe('no-store')
  })

  it('take a cookie a middleware adds once they exist', async () => {
    const res = await get('/api/renewed')
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'renewed=1; Path=/'])
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('keep their own Cache-Control and ETag, weak once gzipped, and answer HEAD with the same headers', async () => {
    const gzipped = await get('/api/tagged', { headers: { 'Accept-Encoding': 'gzip' } })
    expect(gzipped.headers.get('content-encoding')).toBe('gzip')
    expect(gzipped.headers.get('etag')).toBe('W/"v1"')
    expect(gzipped.headers.get('cache-control')).toBe('private, max-age=0')
    expect(await gzipped.json()).toEqual(big)
    const identity = await get('/api/tagged', { headers: { 'Accept-Encoding': 'identity' } })
    expect(identity.headers.get('etag')).toBe('"v1"')
    const head = await get('/api/plain', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-security-policy')).toBe(
      securityHeaderRecord(APP_URL)['content-security-policy'],
    )
    expect(head.headers.get('cache-control')).toBe('no-store')
  })

  it('leave the other answers to Hono as before: security headers, defaults and compression', async () => {
    const res = await get('/api/text')
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(res.headers.get('cache-control')).toBe('no-store')
  })
})
