import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accountOperations } from '../../../domain/api/account.ts'
import { authOperations } from '../../../domain/api/auth.ts'
import { queryRows } from '../../db/rows.ts'
import { errorOf, TestClient, uniqueEmail } from '../../testing/client.ts'
import { codeOf, linkOf, TestMailbox } from '../../testing/mailbox.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts'

const escapeHtml = (value: string) => value.replaceAll('&', '&#38;')

let mailbox: TestMailbox
let testApp: TestApp
beforeAll(async () => {
  mailbox = await TestMailbox.start()
  testApp = await createTestApp({ smtpUrl: mailbox.url, mailFrom: 'Promptfolio <auth@promptfolio.test>' })
})
afterAll(async () => {
  await testApp.close()
  await mailbox.close()
})

/** Sends a code to `email` and returns it as read from the received mail. */
async function requestCode(client: TestClient, email: string): Promise<string> {
  const before = mailbox.to(email).length
  const res = await client.call(authOperations.sendCode, { body: { email } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return codeOf(await mailbox.waitFor(email, { after: before }))
}

/** Lets the per-address cooldown pass without waiting: only Date is faked. */
function afterCooldown() {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.now() + 61_000)
}

describe('emailed-code sign-in', () => {
  it('mails a 6-digit code (text and HTML, from MAIL_FROM) that signs a new address up and in', async () => {
    const email = uniqueEmail('code')
    const client = new TestClient(testApp)
    const before = mailbox.to(email).length
    await client.call(authOperations.sendCode, { body: { email: `  ${email.toUpperCase()} ` } })
    const mail = await mailbox.waitFor(email, { after: before })
    expect(mail.from).toMatch(/^"?Promptfolio"? <auth@promptfolio\.test>$/)
    expect(mail.subject).toBe('Your Promptfolio sign-in code')
    expect(mail.text).toContain('valid for 10 minutes')
    const code = codeOf(mail)
    expect(mail.html).toContain(code)

    const res = await client.call(authOperations.verifyCode, { body: { email, code: ` ${code} ` } })
    expect(res.status).toBe(200)
    expect(res.body.user.email).toBe(email)
    const cookie = res.headers.getSetCookie().find((c) => c.includes('session_token'))
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect((await client.call(accountOperations.me, {})).body.email).toBe(email)
    const profile = await client.call(accountOperations.profile, {})
    expect(profile.status).toBe(200)
  })

  it('signs an existing password account in, and the code works once', async () => {
    const email = uniqueEmail('code')
    await new TestClient(testApp).signUp(email)
    const code = await requestCode(new TestClient(testApp), email)
    const first = new TestClient(testApp)
    expect((await first.call(authOperations.verifyCode, { body: { email, code } })).status).toBe(200)
    const again = await new TestClient(testApp).call(authOperations.verifyCode, { body: { email, code } })
    expect(again.status).toBe(400)
    expect(errorOf(again).message).toBe('Invalid verification code. Please try again.')
  })

  it('answers the same for a registered and an unknown address (no account enumeration)', async () => {
    const registered = uniqueEmail('code')
    await new TestClient(testApp).signUp(registered)
    const answers = []
    for (const email of [registered, uniqueEmail('code')]) {
      const before = mailbox.to(email).length
      const send = await new TestClient(testApp).call(authOperations.sendCode, { body: { email } })
      const code = codeOf(await mailbox.waitFor(email, { after: before }))
      const verify = await new TestClient(testApp).call(authOperations.verifyCode, {
        body: { email, code: code === '000000' ? '111111' : '000000' },
      })
      answers.push({ send: [send.status, send.body], verify: [verify.status, verify.body] })
    }
    expect(answers[0]).toEqual(answers[1])
    expect(answers[0]?.send[0]).toBe(200)
  })

  it('writes to an account in its profile language', async () => {
    const email = uniqueEmail('code')
    const client = new TestClient(testApp)
    await client.signUp(email)
    await client.call(accountOperations.updateProfile, { body: { locale: 'de' } })
    const before = mailbox.to(email).length
    await new TestClient(testApp, { locale: 'en' }).call(authOperations.sendCode, { body: { email } })
    const mail = await mailbox.waitFor(email, { after: before })
    expect(mail.subject).toBe('Dein Anmeldecode für Promptfolio')
    expect(mail.text).toContain('10 Minuten')
  })

  it('kills the code after 15 wrong tries from all clients, even for the right code then', async () => {
    const email = uniqueEmail('code')
    const code = await requestCode(new TestClient(testApp), email)
    const wrong = code === '000000' ? '111111' : '000000'
    // Each client may try 5 wrong codes (failure-limits.api.test.ts); three clients, five each.
    for (const ip of ['192.0.2.101', '192.0.2.102', '192.0.2.103']) {
      for (let i = 0; i < 5; i++) {
        const res = await new TestClient(testApp, { ip }).call(authOperations.verifyCode, {
          body: { email, code: wrong },
        })
        expect(errorOf(res).message).toBe('Invalid verification code. Please try again.')
      }
    }
    const dead = await new TestClient(testApp, { locale: 'de', ip: '192.0.2.104' }).call(
      authOperations.verifyCode,
      { body: { email, code } },
    )
    expect(dead.status).toBe(400)
    expect(errorOf(dead).message).toBe('Zu viele falsche Codes. Bitte einen neuen Code anfordern')
  })

  it('rejects an expired code with the spec message', async () => {
    const email = uniqueEmail('code')
    const code = await requestCode(new TestClient(testApp), email)
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 10 * 60_000 + 1000)
      const res = await new TestClient(testApp, { locale: 'de' }).call(authOperations.verifyCode, {
        body: { email, code },
      })
      expect(errorOf(res).message).toBe('Code ist abgelaufen. Bitte einen neuen Code anfordern')
    } finally {
      vi.useRealTimers()
    }
  })

  it('a resent code replaces the previous one', async () => {
    const email = uniqueEmail('code')
    const first = await requestCode(new TestClient(testApp), email)
    afterCooldown()
    try {
      const second = await requestCode(new TestClient(testApp), email)
      if (first !== second) {
        const old = await new TestClient(testApp).call(authOperations.verifyCode, {
          body: { email, code: first },
        })
        expect(old.status).toBe(400)
      }
      expect(
        (await new TestClient(testApp).call(authOperations.verifyCode, { body: { email, code: second } }))
          .status,
      ).toBe(200)
    } finally {
      vi.useRealTimers()
    }
  })

  it.each([
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'nope' }, 'email', 'Please enter a valid email address'],
  ])('send validates %j', async (body, field, text) => {
    const res = await new TestClient(testApp).call(authOperations.sendCode, { body })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.[field]).toBe(text)
  })

  it.each([
    ['', 'Code is required', 'Code ist erforderlich'],
    ['12345', 'Enter the 6-digit code', 'Gib den 6-stelligen Code ein'],
    ['12a456', 'Enter the 6-digit code', 'Gib den 6-stelligen Code ein'],
    ['1234567', 'Enter the 6-digit code', 'Gib den 6-stelligen Code ein'],
  ])('verify validates the code %j', async (code, en, de) => {
    const body = { email: uniqueEmail(), code }
    const english = await new TestClient(testApp).call(authOperations.verifyCode, { body })
    expect(english.status).toBe(400)
    expect(errorOf(english).fields?.code).toBe(en)
    const german = await new TestClient(testApp, { locale: 'de' }).call(authOperations.verifyCode, { body })
    expect(errorOf(german).fields?.code).toBe(de)
  })

  it('links to the code step for the address, carrying on to a page of this site after signing in', async () => {
    const email = uniqueEmail('code')
    const client = new TestClient(testApp)
    const before = mailbox.to(email).length
    const next = '/invite/abc_DEF-123'
    const res = await client.call(authOperations.sendCode, { body: { email, next } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const mail = await mailbox.waitFor(email, { after: before })
    const link = new URL(linkOf(mail, '/login'))
    expect(link.origin).toBe(TEST_ORIGIN)
    expect(Object.fromEntries(link.searchParams)).toEqual({ email, step: 'code', next })
    expect(mail.html).toContain(escapeHtml(link.toString()))
    // A client's own header cannot smuggle a destination past the validation.
    const other = uniqueEmail('code')
    const plain = await client.call(
      authOperations.sendCode,
      { body: { email: other } },
      { 'x-promptfolio-sign-in-next': '//evil.example' },
    )
    expect(plain.status).toBe(200)
    expect(new URL(linkOf(await mailbox.waitFor(other), '/login')).searchParams.has('next')).toBe(false)
  })

  it("refuses a destination off this site, in the caller's language, and mails nothing", async () => {
    for (const next of ['https://evil.example/x', '//evil.example', '/\\evil.example', 'invite/x']) {
      const email = uniqueEmail('code')
      const res = await new TestClient(testApp, { locale: 'de' }).call(authOperations.sendCode, {
        body: { email, next },
      })
      expect(res.status, next).toBe(400)
      expect(errorOf(res).code).toBe('validation')
      expect(JSON.stringify(errorOf(res))).toContain(
        'Die Seite nach der Anmeldung muss eine Seite dieser Website sein',
      )
      expect(mailbox.to(email)).toHaveLength(0)
    }
  })

  it("better-auth's own code endpoints are closed (they would skip the app's limits)", async () => {
    const client = new TestClient(testApp)
    for (const path of ['/api/auth/email-otp/send-verification-otp', '/api/auth/sign-in/email-otp']) {
      expect((await client.post(path, { email: uniqueEmail(), type: 'sign-in', otp: '123456' })).status).toBe(
        404,
      )
    }
  })

  it('lists the configured sign-in providers (none here) and SMTP', async () => {
    const res = await new TestClient(testApp).call(authOperations.providers, {})
    expect(res.body).toEqual({
      google: false,
      apple: false,
      smtp: true,
      appUrl: TEST_ORIGIN,
      adminPasswordReset: true,
      preview: { deployment: false, origins: [] },
    })
  })
})

describe('code rate limits', () => {
  it('one code per address per minute: 429 with Retry-After and the wait in the message', async () => {
    const email = uniqueEmail('code')
    await requestCode(new TestClient(testApp), email)
    const res = await new TestClient(testApp).call(authOperations.sendCode, { body: { email } })
    expect(res.status).toBe(429)
    const wait = Number(res.headers.get('retry-after'))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(60)
    expect(errorOf(res).message).toBe(`Rate limit reached. Please wait ${wait} seconds before trying again.`)
    expect(errorOf(res).retryAfter).toBe(wait)
  })

  it('caps code checks per address', async () => {
    const limited = await createTestApp({ rateLimitMultiplier: 1 })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 51; i++) {
        const email = uniqueEmail('code')
        statuses.push(
          (await new TestClient(limited).call(authOperations.verifyCode, { body: { email, code: '123456' } }))
            .status,
        )
      }
      expect(statuses.slice(0, 50).every((s) => s === 400)).toBe(true)
      expect(statuses[50]).toBe(429)
    } finally {
      await limited.close()
    }
  })
})

describe('failed sign-ins', () => {
  it('are counted per attempt (password and code) without the secret', async () => {
    const email = uniqueEmail('failed')
    await new TestClient(testApp).signUp(email)
    await new TestClient(testApp).signIn(email, 'the wrong password!!')
    await new TestClient(testApp).call(authOperations.verifyCode, { body: { email, code: '000001' } })
    const rows = await queryRows<Record<string, unknown>>(
      testApp.database.db,
      sql`SELECT * FROM failed_sign_ins WHERE email = ${email} ORDER BY created_at`,
    )
    expect(rows.map((r) => r.method)).toEqual(['password', 'code'])
    expect(rows[0]!.user_id).toBeTruthy()
    expect(JSON.stringify(rows)).not.toContain('the wrong password')
    expect(JSON.stringify(rows)).not.toContain('000001')
  })
})
