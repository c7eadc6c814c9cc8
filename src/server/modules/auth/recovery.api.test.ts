import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accountOperations } from '../../../domain/api/account.ts'
import { authOperations } from '../../../domain/api/auth.ts'
import { queryRows } from '../../db/rows.ts'
import { accounts } from '../../db/schema/index.ts'
import {
  DEFAULT_PASSWORD,
  errorOf,
  TestClient,
  type TestResponse,
  uniqueEmail,
} from '../../testing/client.ts'
import { linkOf, TestMailbox } from '../../testing/mailbox.ts'
import { openedText } from '../../testing/outbox.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts'

let mailbox: TestMailbox
let testApp: TestApp
beforeAll(async () => {
  mailbox = await TestMailbox.start()
  testApp = await createTestApp({ smtpUrl: mailbox.url })
})
afterAll(async () => {
  await testApp.close()
  await mailbox.close()
})

const NEW_PASSWORD = 'a brand new passphrase 42'

async function requestReset(email: string, options: { newTab?: boolean; host?: string } = {}) {
  const before = mailbox.to(email).length
  const client = new TestClient(testApp)
  const res = await client.call(
    authOperations.requestPasswordReset,
    { body: { email, newTab: options.newTab } },
    options.host ? { Host: options.host, 'X-Forwarded-Host': options.host } : {},
  )
  expect(res.status).toBe(200)
  const mail = await mailbox.waitFor(email, { after: before })
  return new URL(linkOf(mail, '/auth/confirm'))
}

describe('password reset by emailed link', () => {
  it('mails a single-use link to /auth/confirm built from APP_URL; the reset ends every session', async () => {
    const email = uniqueEmail('reset')
    const owner = new TestClient(testApp)
    await owner.signUp(email)
    const link = await requestReset(email, { host: 'evil.example' })
    expect(link.origin).toBe(TEST_ORIGIN)
    expect(link.searchParams.get('type')).toBe('recovery')
    expect(link.searchParams.get('next')).toBe('/reset-password')
    expect(link.searchParams.has('new_tab')).toBe(false)
    const token = link.searchParams.get('token_hash')!

    const browser = new TestClient(testApp)
    expect((await browser.call(authOperations.recovery, {})).status).toBe(401)
    const verified = await browser.call(authOperations.openRecovery, { body: { tokenHash: token } })
    expect(verified.status).toBe(200)
    expect(verified.body.email).toBe(email)
    const cookie = verified.headers.getSetCookie().find((c) => c.startsWith('promptfolio.recovery='))
    expect(cookie).toMatch(/HttpOnly/i)
    expect((await browser.call(authOperations.recovery, {})).body.email).toBe(email)

    // The link works once.
    const second = await new TestClient(testApp).call(authOperations.openRecovery, {
      body: { tokenHash: token },
    })
    expect(second.status).toBe(400)
    expect(errorOf(second).message).toBe(
      'This password reset link is invalid or has expired. Please request a new one.',
    )

    const mismatch = await browser.call(authOperations.recoverPassword, {
      body: { password: NEW_PASSWORD, confirmPassword: 'something else' },
    })
    expect(errorOf(mismatch).fields?.confirmPassword).toBe('Passwords do not match')
    const short = await browser.call(authOperations.recoverPassword, {
      body: { password: 'short', confirmPassword: 'short' },
    })
    expect(errorOf(short).fields?.password).toBe('Password must be at least 12 characters')

    const done = await browser.call(authOperations.recoverPassword, {
      body: { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    })
    expect(done.status).toBe(200)
    expect((await owner.call(accountOperations.me, {})).status).toBe(401)
    expect((await new TestClient(testApp).signIn(email)).status).toBe(401)
    expect((await new TestClient(testApp).signIn(email, NEW_PASSWORD)).status).toBe(200)
    // The reset session is spent too.
    const again = await browser.call(authOperations.recoverPassword, {
      body: { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    })
    expect(again.status).toBe(401)
    expect(errorOf(again).message).toBe('Authentication required. Please request a new reset link')
  })

  it('carries new_tab=true when requested from a frame', async () => {
    const email = uniqueEmail('reset')
    await new TestClient(testApp).signUp(email)
    const link = await requestReset(email, { newTab: true })
    expect(link.searchParams.get('new_tab')).toBe('true')
  })

  it('answers the same for an unknown address and sends nothing', async () => {
    const unknown = uniqueEmail('nobody')
    const known = uniqueEmail('reset')
    await new TestClient(testApp).signUp(known)
    const a = await new TestClient(testApp).call(authOperations.requestPasswordReset, {
      body: { email: unknown },
    })
    const b = await new TestClient(testApp).call(authOperations.requestPasswordReset, {
      body: { email: known },
    })
    expect(a.status).toBe(b.status)
    expect(a.body).toEqual(b.body)
    await mailbox.waitFor(known)
    await testApp.mail.deliverDue()
    expect(mailbox.to(unknown)).toEqual([])
  })

  it('rejects an expired link', async () => {
    const email = uniqueEmail('reset')
    await new TestClient(testApp).signUp(email)
    const token = (await requestReset(email)).searchParams.get('token_hash')!
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 31 * 60_000)
      const res = await new TestClient(testApp).call(authOperations.openRecovery, {
        body: { tokenHash: token },
      })
      expect(res.status).toBe(400)
    } finally {
      vi.useRealTimers()
    }
  })

  it('rejects a made-up token in German too', async () => {
    const res = await new TestClient(testApp, { locale: 'de' }).call(authOperations.openRecovery, {
      body: { tokenHash: 'not-a-real-token' },
    })
    expect(errorOf(res).message).toBe(
      'Dieser Link zum Zurücksetzen des Passworts ist ungültig oder abgelaufen. Bitte fordere einen neuen an.',
    )
  })

  it('is limited to one mail per address per minute', async () => {
    const email = uniqueEmail('reset')
    await new TestClient(testApp).signUp(email)
    await requestReset(email)
    const res = await new TestClient(testApp).call(authOperations.requestPasswordReset, { body: { email } })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('a password change ends every earlier reset link and recovery session (review item 2)', () => {
  /** A further link for the same address within the minute (the route allows one mail a minute). */
  async function anotherLink(email: string) {
    await testApp.database.db.execute(
      sql`DELETE FROM rate_limits WHERE key = ${`reset-request:cooldown:${email}`}`,
    )
    return (await requestReset(email)).searchParams.get('token_hash')!
  }

  async function recoverySession(token: string) {
    const browser = new TestClient(testApp)
    expect((await browser.call(authOperations.openRecovery, { body: { tokenHash: token } })).status).toBe(200)
    return browser
  }

  const setPassword = (browser: TestClient, password = NEW_PASSWORD) =>
    browser.call(authOperations.recoverPassword, { body: { password, confirmPassword: password } })

  const openLink = (token: string) =>
    new TestClient(testApp).call(authOperations.openRecovery, { body: { tokenHash: token } })

  it('a direct reset ends a link mailed before it', async () => {
    const email = uniqueEmail('item2')
    await new TestClient(testApp).signUp(email)
    const token = (await requestReset(email)).searchParams.get('token_hash')!
    const direct = await new TestClient(testApp).call(authOperations.directReset, {
      body: {
        email,
        currentPassword: DEFAULT_PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
    })
    expect(direct.status).toBe(200)
    expect((await openLink(token)).status).toBe(400)
  })

  it('a direct reset ends a recovery session opened before it', async () => {
    const email = uniqueEmail('item2')
    await new TestClient(testApp).signUp(email)
    const browser = await recoverySession((await requestReset(email)).searchParams.get('token_hash')!)
    await new TestClient(testApp).call(authOperations.directReset, {
      body: {
        email,
        currentPassword: DEFAULT_PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
    })
    expect((await browser.call(authOperations.recovery, {})).status).toBe(401)
    expect((await setPassword(browser, 'the attacker chose this one')).status).toBe(401)
    expect((await new TestClient(testApp).signIn(email, NEW_PASSWORD)).status).toBe(200)
  })

  it('a completed reset ends the other links and recovery sessions', async () => {
    const email = uniqueEmail('item2')
    await new TestClient(testApp).signUp(email)
    const first = await recoverySession((await requestReset(email)).searchParams.get('token_hash')!)
    const second = await recoverySession(await anotherLink(email))
    const unused = await anotherLink(email)
    // The newest link ended the two sessions opened before it: only its own can be completed.
    const third = await recoverySession(unused)
    expect((await setPassword(third)).status).toBe(200)
    for (const browser of [first, second])
      expect((await setPassword(browser, 'someone else chose')).status).toBe(401)
    expect((await new TestClient(testApp).signIn(email, NEW_PASSWORD)).status).toBe(200)
  })

  it('a new link ends the links mailed before it', async () => {
    const email = uniqueEmail('item2')
    await new TestClient(testApp).signUp(email)
    const old = (await requestReset(email)).searchParams.get('token_hash')!
    const fresh = await anotherLink(email)
    expect((await openLink(old)).status).toBe(400)
    expect((await openLink(fresh)).status).toBe(200)
  })

  it('an admin setting the password ends the links', async () => {
    const fresh = await createTestApp()
    try {
      const admin = new TestClient(fresh)
      await admin.signUp()
      const email = uniqueEmail('item2')
      await new TestClient(fresh).signUp(email)
      expect(
        (await new TestClient(fresh).call(authOperations.requestPasswordReset, { body: { email } })).status,
      ).toBe(200)
      const [mail] = await queryRows<{ text_body: string; secrets: string[] }>(
        fresh.database.db,
        sql`SELECT text_body, secrets FROM mail_outbox WHERE to_address = ${email} AND kind = 'password_reset'`,
      )
      const text = openedText(fresh, mail!.text_body, mail!.secrets)
      const token = new URL(text.match(/https?:\/\/\S+\/auth\/confirm\S*/)![0]).searchParams.get(
        'token_hash',
      )!
      const set = await admin.call(authOperations.adminSetPassword, {
        body: { email, newPassword: NEW_PASSWORD },
      })
      expect(set.status).toBe(200)
      expect(
        (await new TestClient(fresh).call(authOperations.openRecovery, { body: { tokenHash: token } }))
          .status,
      ).toBe(400)
    } finally {
      await fresh.close()
    }
  })

  it('a recovery session cannot be traded for a new one', async () => {
    const email = uniqueEmail('item2')
    await new TestClient(testApp).signUp(email)
    const link = (await requestReset(email)).searchParams.get('token_hash')!
    const verified = await new TestClient(testApp).call(authOperations.openRecovery, {
      body: { tokenHash: link },
    })
    const cookie = verified.headers.getSetCookie().find((c) => c.startsWith('promptfolio.recovery='))!
    const token = cookie.slice('promptfolio.recovery='.length, cookie.indexOf(';'))
    const renewed = await openLink(token)
    expect(renewed.status).toBe(400)
    expect(renewed.headers.getSetCookie()).toEqual([])
  })
})

describe('every way of setting a password', () => {
  it('refuses one of the most common passwords: reset form, direct reset, admin reset', async () => {
    const common = 'qwerty123456'
    const email = uniqueEmail('common')
    const owner = new TestClient(testApp)
    await owner.signUp(email)
    const token = (await requestReset(email)).searchParams.get('token_hash')!
    const browser = new TestClient(testApp)
    expect((await browser.call(authOperations.openRecovery, { body: { tokenHash: token } })).status).toBe(200)
    const reset = await browser.call(authOperations.recoverPassword, {
      body: { password: common, confirmPassword: common },
    })
    expect(reset.status).toBe(400)
    expect(errorOf(reset).fields?.password).toBe(
      'This password is one of the most common ones. Please choose another.',
    )
    const direct = await new TestClient(testApp).call(authOperations.directReset, {
      body: { email, currentPassword: DEFAULT_PASSWORD, newPassword: common, confirmPassword: common },
    })
    expect(direct.status).toBe(400)
    expect(errorOf(direct).fields?.newPassword).toBe(
      'This password is one of the most common ones. Please choose another.',
    )
    expect((await owner.call(accountOperations.me, {})).status).toBe(200)
    expect((await new TestClient(testApp).signIn(email, common)).status).toBe(401)
  })
})

describe('the reset link check', () => {
  it('is limited per client address, so made-up links from one address cannot block everyone', async () => {
    const strict = await createTestApp({ rateLimitMultiplier: 1 })
    try {
      const email = uniqueEmail('reset')
      await new TestClient(strict).signUp(email)
      expect(
        (await new TestClient(strict).call(authOperations.requestPasswordReset, { body: { email } })).status,
      ).toBe(200)
      const [mail] = await queryRows<{ text_body: string; secrets: string[] }>(
        strict.database.db,
        sql`SELECT text_body, secrets FROM mail_outbox WHERE to_address = ${email} AND kind = 'password_reset'`,
      )
      const text = openedText(strict, mail!.text_body, mail!.secrets)
      const link = text.match(/https?:\/\/\S+\/auth\/confirm\S*/)![0]
      const token = new URL(link).searchParams.get('token_hash')!

      const attacker = new TestClient(strict, { ip: '203.0.113.66' })
      let refused: TestResponse | undefined
      for (let attempt = 0; attempt < 40 && !refused; attempt += 1) {
        const res = await attacker.call(authOperations.openRecovery, {
          body: { tokenHash: `made-up-${attempt}` },
        })
        if (res.status === 429) refused = res
      }
      expect(refused?.headers.get('retry-after')).toBeTruthy()

      const owner = new TestClient(strict, { ip: '198.51.100.7' })
      const res = await owner.call(authOperations.openRecovery, { body: { tokenHash: token } })
      expect(res.status).toBe(200)
      expect(res.body.email).toBe(email)
    } finally {
      await strict.close()
    }
  })
})

describe('direct reset', () => {
  const body = (email: string, patch: Record<string, string> = {}) => ({
    email,
    currentPassword: DEFAULT_PASSWORD,
    newPassword: NEW_PASSWORD,
    confirmPassword: NEW_PASSWORD,
    ...patch,
  })

  it.each([
    [
      { currentPassword: '' },
      'currentPassword',
      'Current password is required',
      'Aktuelles Passwort ist erforderlich',
    ],
    [
      { newPassword: 'short', confirmPassword: 'short' },
      'newPassword',
      'New password must be at least 12 characters',
      'Neues Passwort muss mindestens 12 Zeichen haben',
    ],
    [
      { confirmPassword: 'not the same thing' },
      'confirmPassword',
      'New passwords do not match',
      'Neue Passwörter stimmen nicht überein',
    ],
    [
      { newPassword: DEFAULT_PASSWORD, confirmPassword: DEFAULT_PASSWORD },
      'newPassword',
      'New password must be different from current password',
      'Neues Passwort muss sich vom aktuellen Passwort unterscheiden',
    ],
    [{ email: '' }, 'email', 'Email is required', 'E-Mail ist erforderlich'],
  ])('validates %j', async (patch, field, en, de) => {
    const english = await new TestClient(testApp).call(authOperations.directReset, {
      body: body('a@b.co', patch),
    })
    expect(english.status).toBe(400)
    expect(errorOf(english).fields?.[field]).toBe(en)
    const german = await new TestClient(testApp, { locale: 'de' }).call(authOperations.directReset, {
      body: body('a@b.co', patch),
    })
    expect(errorOf(german).fields?.[field]).toBe(de)
  })

  it('checks the current password on the server, then sets the new one and ends all sessions', async () => {
    const email = uniqueEmail('direct')
    const owner = new TestClient(testApp)
    await owner.signUp(email)
    const wrong = await new TestClient(testApp, { locale: 'de' }).call(authOperations.directReset, {
      body: body(email, { currentPassword: 'not my password!!' }),
    })
    expect(wrong.status).toBe(401)
    expect(errorOf(wrong).message).toBe('E-Mail oder aktuelles Passwort ist falsch')
    const unknown = await new TestClient(testApp).call(authOperations.directReset, {
      body: body(uniqueEmail()),
    })
    expect(unknown.status).toBe(401)
    expect(errorOf(unknown).message).toBe('Email or current password is incorrect')

    expect(
      (await new TestClient(testApp).call(authOperations.directReset, { body: body(email) })).status,
    ).toBe(200)
    expect((await owner.call(accountOperations.me, {})).status).toBe(401)
    expect((await new TestClient(testApp).signIn(email, NEW_PASSWORD)).status).toBe(200)
  })

  it('is rate limited per account', async () => {
    const limited = await createTestApp({ rateLimitMultiplier: 1 })
    try {
      const email = uniqueEmail('direct')
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) {
        statuses.push(
          (
            await new TestClient(limited).call(authOperations.directReset, {
              body: body(email, { currentPassword: 'wrong one!!' }),
            })
          ).status,
        )
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
    } finally {
      await limited.close()
    }
  })
})

describe('admin password reset (/temp-reset)', () => {
  it('is for global admins only, sets the password (>= 12) and ends the user sessions', async () => {
    const fresh = await createTestApp()
    try {
      const admin = new TestClient(fresh)
      await admin.signUp()
      const user = new TestClient(fresh)
      const email = uniqueEmail('victim')
      await user.signUp(email)

      const refused = await user.call(authOperations.adminSetPassword, {
        body: { email, newPassword: NEW_PASSWORD },
      })
      expect(refused.status).toBe(403)
      expect(errorOf(refused).message).toBe('Global admin access required')
      expect(
        (
          await new TestClient(fresh).call(authOperations.adminSetPassword, {
            body: { email, newPassword: NEW_PASSWORD },
          })
        ).status,
      ).toBe(401)

      const short = await admin.call(authOperations.adminSetPassword, {
        body: { email, newPassword: 'short' },
      })
      expect(errorOf(short).fields?.newPassword).toBe('New password must be at least 12 characters')
      const common = await admin.call(authOperations.adminSetPassword, {
        body: { email, newPassword: '1q2w3e4r5t6y' },
      })
      expect(common.status).toBe(400)
      expect(errorOf(common).fields?.newPassword).toBe(
        'This password is one of the most common ones. Please choose another.',
      )
      const missing = await admin.call(authOperations.adminSetPassword, {
        body: { email: uniqueEmail(), newPassword: NEW_PASSWORD },
      })
      expect(missing.status).toBe(404)

      expect(
        (await admin.call(authOperations.adminSetPassword, { body: { email, newPassword: NEW_PASSWORD } }))
          .status,
      ).toBe(200)
      expect((await user.call(accountOperations.me, {})).status).toBe(401)
      expect((await new TestClient(fresh).signIn(email, NEW_PASSWORD)).status).toBe(200)
      expect((await admin.call(accountOperations.me, {})).status).toBe(200)
    } finally {
      await fresh.close()
    }
  })

  it('gives a password to an account that had none (signed up by code or Google)', async () => {
    const fresh = await createTestApp()
    try {
      const admin = new TestClient(fresh)
      await admin.signUp()
      const email = uniqueEmail('passwordless')
      const user = await new TestClient(fresh).signUp(email)
      await fresh.database.db
        .delete(accounts)
        .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, 'credential')))
      expect((await new TestClient(fresh).signIn(email)).status).toBe(401)

      const set = await admin.call(authOperations.adminSetPassword, {
        body: { email, newPassword: NEW_PASSWORD },
      })
      expect(set.status).toBe(200)
      expect((await new TestClient(fresh).signIn(email, NEW_PASSWORD)).status).toBe(200)
    } finally {
      await fresh.close()
    }
  })
})

describe('sessions', () => {
  it('"sign out of all other sessions" keeps this one and ends the others', async () => {
    const email = uniqueEmail('sessions')
    const here = new TestClient(testApp)
    await here.signUp(email)
    const elsewhere = new TestClient(testApp)
    await elsewhere.signIn(email)
    expect((await here.post('/api/auth/revoke-other-sessions', {})).status).toBe(200)
    expect((await here.call(accountOperations.me, {})).status).toBe(200)
    expect((await elsewhere.call(accountOperations.me, {})).status).toBe(401)
  })

  it('on https the session and reset-session cookies are Secure as well as HttpOnly and SameSite=Lax', async () => {
    const origin = 'https://promptfolio.example'
    const https = await createTestApp({ appUrl: origin, trustedOrigins: [origin] })
    try {
      const email = uniqueEmail('secure')
      const client = new TestClient(https, { origin })
      const signUp = await client.call(authOperations.signUp, {
        body: { email, password: DEFAULT_PASSWORD, confirmPassword: DEFAULT_PASSWORD, acceptTerms: true },
      })
      expect(signUp.status).toBe(201)
      const session = signUp.headers.getSetCookie().find((c) => c.includes('session_token'))
      for (const flag of [/;\s*Secure/i, /HttpOnly/i, /SameSite=Lax/i]) expect(session).toMatch(flag)
      expect((await client.call(accountOperations.me, {})).status).toBe(200)

      expect((await client.call(authOperations.requestPasswordReset, { body: { email } })).status).toBe(200)
      const [mail] = await queryRows<{ text_body: string; secrets: string[] }>(
        https.database.db,
        sql`SELECT text_body, secrets FROM mail_outbox WHERE to_address = ${email} AND kind = 'password_reset'`,
      )
      const text = openedText(https, mail!.text_body, mail!.secrets)
      const link = new URL(text.match(/https?:\/\/\S+\/auth\/confirm\S*/)![0])
      expect(link.origin).toBe(origin)
      const recovery = await client.call(authOperations.openRecovery, {
        body: { tokenHash: link.searchParams.get('token_hash')! },
      })
      expect(recovery.status).toBe(200)
      // ASVS V3.3.1 (review item 13): the name carries the __Secure- prefix, which browsers only
      // accept from a secure origin with the Secure flag.
      const reset = recovery.headers
        .getSetCookie()
        .find((c) => c.startsWith('__Secure-promptfolio.recovery='))
      for (const flag of [/;\s*Secure/i, /HttpOnly/i, /SameSite=Lax/i]) expect(reset).toMatch(flag)
      expect((await client.call(authOperations.recovery, {})).body.email).toBe(email)
    } finally {
      await https.close()
    }
  })

  it('a new sign-in gets a new session token', async () => {
    const email = uniqueEmail('sessions')
    const first = new TestClient(testApp)
    await first.signUp(email)
    const res = await first.signIn(email)
    const before = res.headers.getSetCookie().find((c) => c.includes('session_token'))
    const again = await first.signIn(email)
    const after = again.headers.getSetCookie().find((c) => c.includes('session_token'))
    expect(after).toBeTruthy()
    expect(after).not.toBe(before)
  })

  it('ends a session 30 days after sign-in even if it was used every day', async () => {
    const client = await TestClient.signedUp(testApp)
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      for (let day = 1; day <= 31; day++) {
        vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000)
        const res = await client.call(accountOperations.me, {})
        if (day < 30) expect(res.status, `day ${day}`).toBe(200)
        else expect(res.status, `day ${day}`).toBe(401)
      }
    } finally {
      vi.useRealTimers()
    }
  })

  it('ends a session unused for 7 days', async () => {
    const client = await TestClient.signedUp(testApp)
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 7 * 24 * 60 * 60 * 1000 + 60_000)
      expect((await client.call(accountOperations.me, {})).status).toBe(401)
    } finally {
      vi.useRealTimers()
    }
  })
})
