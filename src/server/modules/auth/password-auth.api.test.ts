import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../../domain/api/account.ts'
import { authOperations } from '../../../domain/api/auth.ts'
import { DEFAULT_PASSWORD, errorOf, TestClient, uniqueEmail } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

const valid = {
  email: 'x@example.com',
  password: DEFAULT_PASSWORD,
  confirmPassword: DEFAULT_PASSWORD,
  acceptTerms: true,
}

async function signUpError(body: Record<string, unknown>, locale = 'en') {
  const res = await new TestClient(testApp, { locale }).callUnchecked(authOperations.signUp, { body })
  expect(res.status).toBe(400)
  const error = errorOf(res)
  expect(error.code).toBe('validation')
  return error
}

describe('sign-up validation (each message of the sign-up form)', () => {
  it.each([
    ['email', { email: '' }, 'Email is required'],
    ['email', { email: '   ' }, 'Email is required'],
    ['email', { email: 'not-an-email' }, 'Please enter a valid email address'],
    ['password', { password: '', confirmPassword: '' }, 'Password is required'],
    ['password', { password: 'short', confirmPassword: 'short' }, 'Password must be at least 12 characters'],
    [
      'password',
      { password: 'p'.repeat(129), confirmPassword: 'p'.repeat(129) },
      'Password must be at most 128 characters',
    ],
    ['confirmPassword', { confirmPassword: 'something else entirely' }, 'Passwords do not match'],
    ['acceptTerms', { acceptTerms: false }, 'You must accept the Terms and Privacy Policy'],
    ['acceptTerms', { acceptTerms: undefined }, 'You must accept the Terms and Privacy Policy'],
  ])('%s: %j → %s', async (field, patch, text) => {
    const error = await signUpError({ ...valid, ...patch })
    expect(error.fields?.[field]).toBe(text)
  })

  it('answers in German when the caller prefers German', async () => {
    const error = await signUpError(
      { ...valid, email: '', password: 'kurz', confirmPassword: 'kurz' },
      'de-DE,de;q=0.9',
    )
    expect(error.fields?.email).toBe('E-Mail ist erforderlich')
    expect(error.fields?.password).toBe('Passwort muss mindestens 12 Zeichen haben')
  })

  it('refuses one of the most common passwords (also with digits added), with the reason, in both languages', async () => {
    for (const common of ['1qaz2wsx3edc', 'Qwerty123456', 'password1234567', 'Sunshine2024!']) {
      const email = uniqueEmail()
      const error = await signUpError({ ...valid, email, password: common, confirmPassword: common })
      expect(error.message, common).toBe('Password does not meet the requirements')
      expect(error.fields?.password, common).toBe(
        'This password is one of the most common ones. Please choose another.',
      )
      expect((await new TestClient(testApp).signIn(email, common)).status).toBe(401)
    }
    const german = await signUpError(
      { ...valid, password: '1qaz2wsx3edc', confirmPassword: '1qaz2wsx3edc' },
      'de',
    )
    expect(german.message).toBe('Passwort erfüllt nicht die Anforderungen')
    expect(german.fields?.password).toBe('Dieses Passwort gehört zu den häufigsten. Bitte wähle ein anderes.')
  })

  it('creates nothing when validation fails', async () => {
    const email = uniqueEmail()
    await signUpError({ ...valid, email, acceptTerms: false })
    const res = await new TestClient(testApp).signIn(email)
    expect(res.status).toBe(401)
  })
})

describe('sign-up', () => {
  it('trims and lowercases the email, signs the user in, and sets an HttpOnly SameSite=Lax cookie', async () => {
    const client = new TestClient(testApp)
    const res = await client.call(authOperations.signUp, {
      body: { ...valid, email: '  Mixed.Case@Example.COM ' },
    })
    expect(res.status).toBe(201)
    expect(res.body.user.email).toBe('mixed.case@example.com')
    const cookie = res.headers.getSetCookie().find((c) => c.includes('session_token'))
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    const me = await client.call(accountOperations.me, {})
    expect(me.status).toBe(200)
    expect(me.body.email).toBe('mixed.case@example.com')
  })

  it('refuses an email that is already registered', async () => {
    const email = uniqueEmail()
    await new TestClient(testApp).signUp(email)
    const res = await new TestClient(testApp).call(authOperations.signUp, { body: { ...valid, email } })
    expect(res.status).toBe(409)
    expect(errorOf(res).message).toBe('This email address is already registered')
  })

  it("cannot be done through better-auth's own endpoint, which skips the terms and limits", async () => {
    const res = await new TestClient(testApp).post('/api/auth/sign-up/email', {
      email: uniqueEmail(),
      password: DEFAULT_PASSWORD,
      name: '',
    })
    expect(res.status).toBe(404)
  })
})

describe('the first account of an installation', () => {
  it('becomes a global admin; later accounts do not', async () => {
    const fresh = await createTestApp()
    try {
      const first = await new TestClient(fresh).signUp()
      const second = await new TestClient(fresh).signUp()
      expect(first.globalRole).toBe('global_admin')
      expect(second.globalRole).toBe('user')
    } finally {
      await fresh.close()
    }
  })

  it('is decided once even when several accounts sign up at the same moment', async () => {
    const fresh = await createTestApp()
    try {
      const users = await Promise.all(Array.from({ length: 5 }, () => new TestClient(fresh).signUp()))
      const admins = []
      for (const user of users) {
        const client = new TestClient(fresh)
        await client.signIn(user.email)
        const me = await client.call(accountOperations.me, {})
        if (me.body.globalRole === 'global_admin') admins.push(user.email)
      }
      expect(admins).toHaveLength(1)
    } finally {
      await fresh.close()
    }
  })
})

describe('sign-in, session and sign-out', () => {
  it('fails with the spec message for a wrong password or an unknown email', async () => {
    const email = uniqueEmail()
    await new TestClient(testApp).signUp(email)
    for (const attempt of [
      { email, password: 'wrong password 123' },
      { email: uniqueEmail(), password: DEFAULT_PASSWORD },
    ]) {
      const res = await new TestClient(testApp).call(authOperations.signIn, { body: attempt })
      expect(res.status).toBe(401)
      expect(errorOf(res)).toMatchObject({
        code: 'not_authenticated',
        message: 'Invalid email or password.',
      })
    }
    const german = await new TestClient(testApp, { locale: 'de' }).call(authOperations.signIn, {
      body: { email, password: 'wrong password 123' },
    })
    expect(errorOf(german).message).toBe('Ungültige E-Mail oder Passwort')
  })

  it('keeps the user signed in across requests (the session cookie) until sign-out ends it', async () => {
    const email = uniqueEmail()
    await new TestClient(testApp).signUp(email)
    const client = new TestClient(testApp)
    const signIn = await client.signIn(`  ${email.toUpperCase()} `)
    expect(signIn.status).toBe(200)
    for (let i = 0; i < 2; i++) {
      const session = await client.call(accountOperations.session, {})
      expect(session.body.user?.email).toBe(email)
    }
    const out = await client.post('/api/auth/sign-out')
    expect(out.status).toBe(200)
    const after = await client.call(accountOperations.session, {})
    expect(after.body.user).toBeNull()
    expect((await client.call(accountOperations.me, {})).status).toBe(401)
  })

  it('does not accept a session token after sign-out even if a client kept it', async () => {
    const client = await TestClient.signedUp(testApp)
    const kept = client.copy()
    expect((await kept.call(accountOperations.me, {})).status).toBe(200)
    await client.post('/api/auth/sign-out')
    const replay = await kept.call(accountOperations.me, {})
    expect(replay.status).toBe(401)
  })

  it('answers /api/v1/me with 401 and /api/v1/session with null when signed out', async () => {
    const client = new TestClient(testApp)
    const me = await client.call(accountOperations.me, {})
    expect(me.status).toBe(401)
    expect(errorOf(me)).toEqual({ code: 'not_authenticated', message: 'Authentication required' })
    expect((await client.call(accountOperations.session, {})).body).toEqual({ user: null })
  })
})

describe('signing in while the browser still sends an ended session (review item 9)', () => {
  /** A client whose session cookie names a session that no longer exists (typical after a reset). */
  async function withStaleCookie() {
    const user = new TestClient(testApp)
    const { email } = await user.signUp()
    const stale = user.copy()
    await user.post('/api/auth/sign-out')
    return { email, stale }
  }

  it('keeps the new session: the stale cookie is not deleted after the new one is set', async () => {
    const { email, stale } = await withStaleCookie()
    expect((await stale.signIn(email)).status).toBe(200)
    expect(stale.hasSessionCookie()).toBe(true)
    expect((await stale.call(accountOperations.me, {})).status).toBe(200)
  })

  it('keeps the new session of a sign-up too', async () => {
    const { stale } = await withStaleCookie()
    await stale.signUp()
    expect((await stale.call(accountOperations.me, {})).status).toBe(200)
  })

  it('still clears a stale cookie on a request that signs nobody in', async () => {
    const { stale } = await withStaleCookie()
    const res = await stale.call(accountOperations.session, {})
    expect(res.body).toEqual({ user: null })
    expect(stale.hasSessionCookie()).toBe(false)
  })
})

describe('rate limits', () => {
  it('answers 429 with Retry-After when one client keeps failing for one account', async () => {
    const limited = await createTestApp({ rateLimitMultiplier: 1 })
    try {
      const email = uniqueEmail()
      for (let i = 0; i < 3; i++) {
        expect((await new TestClient(limited).signIn(email, 'wrong password 123')).status).toBe(401)
      }
      const last = await new TestClient(limited).signIn(email, 'wrong password 123')
      expect(last.status).toBe(429)
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(errorOf(last).message).toBe('Rate limit reached. Please wait 1 seconds before trying again.')
    } finally {
      await limited.close()
    }
  })
})
