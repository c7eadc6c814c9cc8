import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { precompressWeb } from '../../../scripts/precompress-web.mjs'
import { accountOperations } from '../../domain/api/account.ts'
import { authOperations } from '../../domain/api/auth.ts'
import { conversationOperations } from '../../domain/api/conversations.ts'
import { promptOperations } from '../../domain/api/prompts.ts'
import { teamOperations } from '../../domain/api/teams.ts'
import { createApp, MAX_BODY_BYTES } from '../app.ts'
import { createAuth } from '../auth/auth.ts'
import { createLogger } from '../log.ts'
import { errorOf, TestClient } from '../testing/client.ts'
import { capturingLogger } from '../testing/log.ts'
import { createTeamAs, invitationLinkFor, inviteAs } from '../testing/teams.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import type { AppEnv } from './env.ts'
import { handleError } from './errors.ts'
import { serveWebApp } from './static-web.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

describe('the API envelope', () => {
  it('answers an unknown /api path with a JSON 404, never the web app', async () => {
    const res = await new TestClient(testApp).get('/api/v1/nothing-here')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(errorOf(res)).toEqual({ code: 'not_found', message: 'No such API endpoint.' })
  })

  it("routes with Hono's RegExpRouter; a fixed segment beside a parameter still answers as declared", async () => {
    const client = await TestClient.signedUp(testApp)
    expect((await client.get('/api/v1/prompts/tags')).status).toBe(200)
    expect(testApp.app.router.name).toBe('SmartRouter + RegExpRouter')
    // Routed by the same pattern as import, a path no operation declares is the API's 404.
    const res = await client.post(`/api/v1/prompts/${crypto.randomUUID()}`, {})
    expect(res.status).toBe(404)
    expect(errorOf(res)).toEqual({ code: 'not_found', message: 'No such API endpoint.' })
  })

  it('compresses answers of 1 KiB and more, and sends small ones as they are with their length', async () => {
    const small = await testApp.app.request('/api/health', { headers: { 'Accept-Encoding': 'gzip' } })
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(small.headers.get('vary')).toBe('Accept-Encoding')
    const text = await small.text()
    expect(small.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect(JSON.parse(text)).toHaveProperty('status')
    const openapi = (acceptEncoding: string) =>
      testApp.app.request('/api/v1/openapi.json', { headers: { 'Accept-Encoding': acceptEncoding } })
    // Gzipped at once, with the length of what is sent (no stream through compress()).
    const large = await openapi('gzip, deflate, br')
    expect(large.status).toBe(200)
    expect(large.headers.get('content-encoding')).toBe('gzip')
    expect(large.headers.get('vary')).toBe('Accept-Encoding')
    const gzipped = Buffer.from(await large.arrayBuffer())
    expect(large.headers.get('content-length')).toBe(String(gzipped.length))
    const document = gunzipSync(gzipped).toString()
    expect(JSON.parse(document)).toHaveProperty('openapi')
    expect(gzipped.length).toBeLessThan(document.length / 4)
    // A client that refuses gzip, or names no encoding, gets the text as it is.
    for (const refused of ['gzip;q=0, identity', 'identity', '']) {
      const plain = await openapi(refused)
      expect(plain.headers.get('content-encoding'), refused).toBeNull()
      expect(plain.headers.get('content-length'), refused).toBe(String(Buffer.byteLength(document)))
    }
    expect((await openapi('br;q=1, *;q=0.5')).headers.get('content-encoding')).toBe('gzip')
  })

  it('rejects malformed JSON with 400 and changes nothing', async () => {
    const client = new TestClient(testApp)
    const res = await client.request('POST', '/api/v1/auth/sign-up', {
      rawBody: '{"email": "a@b.c",',
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).code).toBe('validation')
    expect(errorOf(res).message).toBe('The request body is not valid JSON.')
  })

  it('rejects a body over the limit with 413', async () => {
    const client = new TestClient(testApp)
    const res = await client.request('POST', '/api/v1/auth/sign-in', {
      rawBody: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(MAX_BODY_BYTES) }),
    })
    expect(res.status).toBe(413)
    expect(errorOf(res).code).toBe('payload_too_large')
  })

  it('refuses state-changing requests from another origin', async () => {
    const client = new TestClient(testApp, { origin: 'https://evil.example' })
    const res = await client.call(authOperations.signIn, { body: { email: 'a@b.co', password: 'x' } })
    expect(res.status).toBe(403)
    expect(errorOf(res).code).toBe('forbidden')
  })

  it('refuses state-changing requests from an opaque origin (Origin: null: sandboxed frames, data: pages)', async () => {
    const owner = new TestClient(testApp)
    await owner.signUp()
    const framed = owner.copy({ origin: 'null' })
    const res = await framed.call(teamOperations.create, { body: { name: 'From a sandbox' } })
    expect(res.status).toBe(403)
    expect(errorOf(res).code).toBe('forbidden')
    expect((await owner.call(teamOperations.list, {})).body.items).toEqual([])
  })

  it('refuses state-changing requests that are not JSON', async () => {
    const client = new TestClient(testApp)
    const res = await client.request('POST', '/api/v1/auth/sign-in', {
      rawBody: 'email=a@b.co&password=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).code).toBe('validation')
  })

  it('sends the security headers and marks API answers as not cacheable', async () => {
    const res = await new TestClient(testApp).get('/api/health')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'")
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('refuses text holding a NUL character (PostgreSQL cannot store it) with 400, in body, query and path', async () => {
    const client = await TestClient.signedUp(testApp, { locale: 'de' })
    const team = await createTeamAs(client, 'Nul')
    const cases = [
      await client.call(teamOperations.create, { body: { name: 'a\u0000b' } }),
      await client.call(promptOperations.create, {
        body: { title: 'Tagged', body: 'Body', tags: ['ok', 'a\u0000'] },
      }),
      await client.call(accountOperations.updateProfile, { body: { displayName: '\u0000' } }),
      await client.call(promptOperations.list, { query: { search: 'a\u0000b' } }),
      await client.call(conversationOperations.list, { query: { search: 'a\u0000b' } }),
      await client.call(teamOperations.removeMember, { params: { teamId: team.id, userId: 'a\u0000b' } }),
    ]
    expect(cases.map((res) => res.status)).toEqual([400, 400, 400, 400, 400, 404])
    expect(cases[1]!.body).toEqual({
      error: {
        code: 'validation',
        message:
          'Der Text enthält ein Zeichen, das nicht gespeichert werden kann (U+0000 oder ein einzelnes Surrogat)',
        fields: {
          'tags.1':
            'Der Text enthält ein Zeichen, das nicht gespeichert werden kann (U+0000 oder ein einzelnes Surrogat)',
        },
      },
    })
    expect((await client.call(teamOperations.list, {})).body.items).toHaveLength(1)
  })

  it('refuses text holding an unpaired surrogate (PostgreSQL JSON cannot store it) with 400', async () => {
    const client = await TestClient.signedUp(testApp)
    const created = await client.call(conversationOperations.create, { body: { title: 'Surrogates' } })
    const conversationId = created.body.id
    const cases = [
      await client.call(conversationOperations.create, {
        body: { title: 'Broken', firstMessage: 'a\ud800b' },
      }),
      await client.call(conversationOperations.appendMessage, {
        params: { id: conversationId },
        body: { content: { text: '\udc00' } },
      }),
      await client.call(promptOperations.create, { body: { title: 'Broken \ud83d', body: 'Body' } }),
    ]
    expect(cases.map((res) => res.status)).toEqual([400, 400, 400])
    expect(cases[1]!.body).toEqual({
      error: {
        code: 'validation',
        message: 'Text contains a character that cannot be stored (U+0000 or an unpaired surrogate)',
        fields: {
          'content.text': 'Text contains a character that cannot be stored (U+0000 or an unpaired surrogate)',
        },
      },
    })
    // A well-formed emoji (a surrogate pair) is fine.
    const emoji = await client.call(conversationOperations.appendMessage, {
      params: { id: conversationId },
      body: { content: { text: '🙂' } },
    })
    expect(emoji.status).toBe(201)
  })

  it('survives a deeply nested JSON body', async () => {
    const client = await TestClient.signedUp(testApp)
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`
    const res = await client.request('POST', '/api/v1/teams', { rawBody: `{"name": ${deep}}` })
    expect(res.status).toBe(400)
  })

  it('answers an unexpected failure with a bare 500 (no internals) in the caller language', async () => {
    const app = new Hono<AppEnv>()
    app.use('*', async (c, next) => {
      c.set('locale', 'de')
      c.set('log', createLogger('silent'))
      await next()
    })
    app.onError(handleError)
    app.get('/boom', () => {
      throw new Error('relation "secret_table" does not exist')
    })
    const res = await app.request('/boom')
    const text = await res.text()
    expect(res.status).toBe(500)
    expect(text).not.toContain('secret_table')
    expect(JSON.parse(text)).toEqual({
      error: { code: 'unexpected', message: 'Unerwarteter Fehler. Bitte versuche es später erneut' },
    })
  })
})

/** A logger that keeps every line, as the server would write it, for assertions. */
describe('request logs', () => {
  it("never carry an invitation link's token (it is in the path)", async () => {
    const { log, lines } = capturingLogger()
    const { config, database } = testApp
    const logged: TestApp = {
      ...testApp,
      ...createApp({ config, database, auth: createAuth({ config, db: database.db, log }), log }),
    }
    const admin = new TestClient(logged)
    await admin.signUp()
    const team = await createTeamAs(admin, 'Logged')
    const invitee = new TestClient(logged)
    const { email } = await invitee.signUp()
    await inviteAs(admin, team.id, email)
    const { token } = await invitationLinkFor(logged, email)
    expect((await invitee.call(teamOperations.previewInvitation, { params: { token } })).status).toBe(200)
    expect((await invitee.call(teamOperations.acceptInvitation, { params: { token } })).status).toBe(200)
    const texts = lines.map((line) => JSON.stringify(line))
    expect(texts.filter((line) => line.includes('/api/v1/invitations/'))).toHaveLength(2)
    expect(texts.filter((line) => line.includes(token))).toEqual([])
  })

  it('hold no error for ordinary requests of signed-out visitors (review, also noted)', async () => {
    const { log, lines } = capturingLogger()
    const quiet = await createTestApp({}, { log })
    try {
      const visitor = new TestClient(quiet)
      for (const operation of [
        accountOperations.me,
        accountOperations.session,
        promptOperations.list,
        authOperations.recovery,
      ]) {
        await visitor.callUnchecked(operation, {})
      }
      await visitor.get('/api/nope')
      await visitor.post('/api/auth/sign-out')
      await visitor.post('/api/auth/revoke-other-sessions')
      await visitor.call(authOperations.signIn, {
        body: { email: 'nobody@example.com', password: 'not the password' },
      })
      await visitor.call(authOperations.verifyCode, { body: { email: 'nobody@example.com', code: '123456' } })
      await visitor.call(authOperations.openRecovery, { body: { tokenHash: 'made-up' } })
      await visitor.post('/api/auth/sign-in/social', { provider: 'google', callbackURL: '/auth/callback' })
      await visitor.get('/api/auth/callback/google?code=made-up&state=made-up')
      await visitor.request('POST', '/api/auth/sign-out', {
        rawBody: 'x',
        headers: { 'Content-Type': 'text/plain' },
      })
      expect(lines.filter((line) => line.level === 'error')).toEqual([])
    } finally {
      await quiet.close()
    }
  })
})

describe('serving the web app', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'pf-dist-'))
  mkdirSync(path.join(dist, 'assets'))
  writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>app</title>${' '.repeat(600)}`)
  writeFileSync(path.join(dist, 'assets', 'main-abc123.js'), `console.log(1);${'//'.repeat(600)}`)
  let web: ReturnType<typeof createApp>['app']

  beforeAll(() => {
    const log = createLogger('silent')
    web = createApp({
      config: testApp.config,
      database: testApp.database,
      auth: createAuth({ config: testApp.config, db: testApp.database.db, log }),
      log,
      webDistDir: dist,
    }).app
  })

  it('caches hashed assets for a year and sends the variants the build compressed', async () => {
    precompressWeb(dist)
    const served = new Hono().use('*', serveWebApp(dist))
    const asset = (encoding: string) =>
      served.request('/assets/main-abc123.js', { headers: { 'Accept-Encoding': encoding } })
    const gzipped = await asset('gzip')
    expect(gzipped.status).toBe(200)
    expect(gzipped.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(gzipped.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toContain('console.log(1)')
    const brotli = await asset('gzip, deflate, br')
    expect(brotli.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(Buffer.from(await brotli.arrayBuffer())).toString()).toContain(
      'console.log(1)',
    )
    const plain = await asset('identity')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toContain('console.log(1)')
  })

  it('reads a file when it is first asked for and keeps it from then on', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'pf-dist-'))
    const page = path.join(own, 'index.html')
    writeFileSync(page, 'listed at start')
    const served = new Hono().use('*', serveWebApp(own))
    writeFileSync(page, 'read at the first request')
    expect(await (await served.request('/')).text()).toBe('read at the first request')
    writeFileSync(page, 'changed afterwards')
    expect(await (await served.request('/')).text()).toBe('read at the first request')
    rmSync(own, { recursive: true, force: true })
  })

  it('answers client routes with index.html, which must be revalidated', async () => {
    const res = await web.request('/prompts/123/edit')
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(await res.text()).toContain('<title>app</title>')
  })

  it('answers a missing asset with 404 instead of the page', async () => {
    const res = await web.request('/assets/gone-000.js')
    expect(res.status).toBe(404)
  })
})
