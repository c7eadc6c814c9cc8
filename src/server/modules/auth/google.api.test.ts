import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../../domain/api/account.ts'
import { authOperations } from '../../../domain/api/auth.ts'
import type { ErrorBody } from '../../../domain/errors.ts'
import { TestClient, uniqueEmail } from '../../testing/client.ts'
import { TestMailbox } from '../../testing/mailbox.ts'
import { LocalOpenIdProvider } from '../../testing/oidc-provider.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts'

let provider: LocalOpenIdProvider
let testApp: TestApp
beforeAll(async () => {
  provider = await LocalOpenIdProvider.start({ redirectUris: [`${TEST_ORIGIN}/api/auth/callback/google`] })
  testApp = await createTestApp({
    google: {
      clientId: LocalOpenIdProvider.clientId,
      clientSecret: LocalOpenIdProvider.clientSecret,
      issuer: provider.issuer,
    },
  })
})
afterAll(async () => {
  await testApp.close()
  await provider.close()
})

/** Starts Google sign-in as the web app does and returns the provider URL it should open. */
async function startGoogle(client: TestClient): Promise<URL> {
  const res = await client.post<{ url: string; redirect: boolean }>('/api/auth/sign-in/social', {
    provider: 'google',
    callbackURL: '/auth/callback',
    errorCallbackURL: '/auth/callback',
    newUserCallbackURL: '/auth/callback',
    disableRedirect: true,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return new URL(res.body.url)
}

describe('Google sign-in against a local OpenID provider', () => {
  it("asks for the account chooser and offline access, with PKCE, at the issuer's endpoint", async () => {
    const url = await startGoogle(new TestClient(testApp))
    expect(url.origin).toBe(provider.issuer)
    expect(url.searchParams.get('prompt')).toBe('select_account')
    expect(url.searchParams.get('access_type')).toBe('offline')
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('redirect_uri')).toBe(`${TEST_ORIGIN}/api/auth/callback/google`)
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'email', 'profile']),
    )
  })

  it('creates the account with a profile on first sign-in and signs it in; later sign-ins reuse it', async () => {
    const email = uniqueEmail('google')
    for (let round = 0; round < 2; round++) {
      const client = new TestClient(testApp)
      const back = new URL(await provider.signInAs((await startGoogle(client)).toString(), email))
      expect(back.origin).toBe(TEST_ORIGIN)
      const callback = await client.get(`${back.pathname}${back.search}`)
      expect(callback.status).toBe(302)
      expect(callback.headers.get('location')).toBe('/auth/callback')
      const me = await client.call(accountOperations.me, {})
      expect(me.status).toBe(200)
      expect(me.body.email).toBe(email)
      expect((await client.call(accountOperations.profile, {})).status).toBe(200)
    }
  })

  it('does not join a password account whose address was never proven (no pre-registration takeover)', async () => {
    const email = uniqueEmail('google')
    await new TestClient(testApp).signUp(email)
    const client = new TestClient(testApp)
    const back = new URL(await provider.signInAs((await startGoogle(client)).toString(), email))
    const callback = await client.get(`${back.pathname}${back.search}`)
    expect(callback.headers.get('location')).toMatch(/^\/auth\/callback\?error=account_not_linked/)
    expect((await client.call(accountOperations.me, {})).status).toBe(401)
  })

  it('refuses a callback whose state was not started by this browser', async () => {
    const starter = new TestClient(testApp)
    const back = new URL(
      await provider.signInAs((await startGoogle(starter)).toString(), uniqueEmail('google')),
    )
    const stranger = new TestClient(testApp)
    const res = await stranger.get(`${back.pathname}${back.search}`)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toMatch(/error=/)
    expect((await stranger.call(accountOperations.me, {})).status).toBe(401)
  })
})

describe('unconfigured providers', () => {
  it('say so instead of failing', async () => {
    const plain = await createTestApp()
    try {
      expect((await new TestClient(plain).call(authOperations.providers, {})).body).toMatchObject({
        google: false,
        apple: false,
      })
      const res = await new TestClient(plain).post<ErrorBody>('/api/auth/sign-in/social', {
        provider: 'google',
        callbackURL: '/auth/callback',
        disableRedirect: true,
      })
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
    } finally {
      await plain.close()
    }
  })
})

describe('auth diagnostics (admin debug pages)', () => {
  it('checks the database, the Google discovery document and SMTP live; others get 403', async () => {
    const mailbox = await TestMailbox.start()
    const fresh = await createTestApp({
      smtpUrl: mailbox.url,
      google: {
        clientId: LocalOpenIdProvider.clientId,
        clientSecret: LocalOpenIdProvider.clientSecret,
        issuer: provider.issuer,
      },
    })
    try {
      const admin = new TestClient(fresh)
      await admin.signUp()
      const user = new TestClient(fresh)
      await user.signUp()
      await user.signIn(user.user!.email, 'a wrong password!')
      expect((await user.call(authOperations.diagnostics, {})).status).toBe(403)
      expect((await new TestClient(fresh).call(authOperations.diagnostics, {})).status).toBe(401)
      const res = await admin.call(authOperations.diagnostics, {})
      expect(res.status).toBe(200)
      expect(res.body.database.ok).toBe(true)
      expect(res.body.google).toMatchObject({
        configured: true,
        issuer: provider.issuer,
        discovery: { ok: true },
      })
      expect(res.body.smtp).toMatchObject({ configured: true, connection: { ok: true } })
      expect(res.body.apple.configured).toBe(false)
      expect(res.body.failedSignInsLast24h).toBe(1)
      const absolute = new Date(res.body.session.absoluteExpiresAt).getTime()
      expect(absolute - new Date(res.body.session.createdAt).getTime()).toBe(30 * 24 * 60 * 60 * 1000)
    } finally {
      await fresh.close()
      await mailbox.close()
    }
  })
})
