import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authOperations } from '../../domain/api/auth.ts'
import { mailOperations } from '../../domain/api/mail.ts'
import { teamOperations } from '../../domain/api/teams.ts'
import { queryRows } from '../db/rows.ts'
import { createLogger, type Logger } from '../log.ts'
import { TestClient, uniqueEmail } from '../testing/client.ts'
import { capturingLogger } from '../testing/log.ts'
import { TestMailbox } from '../testing/mailbox.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { createMailDelivery, MAX_ATTEMPTS, retryDelaySeconds } from './delivery.ts'
import { enqueueMail } from './outbox.ts'
import { mailKeyOf } from './sealing.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

const db = () => testApp.database.db

/** A delivery worker on the test database, sending to `smtpUrl` (unset: printing to `log`). */
const deliveryTo = (
  smtpUrl: string | undefined,
  options: { log?: Logger; logSecrets?: boolean; mailFrom?: string } = {},
) =>
  createMailDelivery({
    database: testApp.database,
    smtpUrl,
    mailFrom: options.mailFrom ?? 'x@y.z',
    log: options.log ?? createLogger('silent'),
    logSecrets: options.logSecrets,
    key: mailKeyOf(testApp.config),
  })

async function row(id: string) {
  const [found] = await queryRows<{
    status: string
    attempts: number
    last_error: string | null
    next_attempt_at: Date | string
  }>(db(), sql`SELECT status, attempts, last_error, next_attempt_at FROM mail_outbox WHERE id = ${id}`)
  return found!
}

describe('mail delivery', () => {
  it('without SMTP_URL prints the mail to the server log and marks it logged', async () => {
    const { log, lines } = capturingLogger()
    const delivery = deliveryTo(undefined, { log })
    const to = uniqueEmail('log')
    const id = await enqueueMail(db(), { kind: 'test', to, subject: 'Hi', text: 'The body 123' })
    await delivery.deliverDue()
    expect((await row(id)).status).toBe('logged')
    expect(lines.find((l) => l.fields.to === to)?.fields).toMatchObject({
      subject: 'Hi',
      text: 'The body 123',
    })
    await delivery.stop()
  })

  it('sends multipart mail over SMTP, once, even with two workers racing', async () => {
    const mailbox = await TestMailbox.start()
    const make = () => deliveryTo(mailbox.url, { mailFrom: 'Promptfolio <from@promptfolio.test>' })
    const [a, b] = [make(), make()]
    try {
      const to = uniqueEmail('smtp')
      const ids = await Promise.all(
        [1, 2, 3].map((n) =>
          enqueueMail(db(), {
            kind: 'test',
            to,
            subject: `Mail ${n}`,
            text: `text ${n}`,
            html: `<p>html ${n}</p>`,
          }),
        ),
      )
      await Promise.all([a.deliverDue(), b.deliverDue(), a.deliverDue()])
      await mailbox.waitFor(to, { after: 2 })
      await Promise.all([a.deliverDue(), b.deliverDue()])
      const received = mailbox.to(to)
      expect(received.map((m) => m.subject).sort()).toEqual(['Mail 1', 'Mail 2', 'Mail 3'])
      expect(received[0]!.html).toContain('<p>html')
      for (const id of ids) expect((await row(id)).status).toBe('sent')
    } finally {
      await a.stop()
      await b.stop()
      await mailbox.close()
    }
  })

  it('retries a failed send with back-off and finally marks it failed, keeping it', async () => {
    // Nothing listens on port 9 of the loopback: every connection is refused.
    const delivery = deliveryTo('smtp://127.0.0.1:9')
    try {
      const id = await enqueueMail(db(), { kind: 'test', to: uniqueEmail('fail'), subject: 'S', text: 'T' })
      await delivery.deliverDue()
      const first = await row(id)
      expect(first).toMatchObject({ status: 'pending', attempts: 1 })
      expect(first.last_error).toBeTruthy()
      const due = new Date(first.next_attempt_at).getTime() - Date.now()
      expect(due).toBeGreaterThan(20_000)
      expect(due).toBeLessThanOrEqual(31_000)
      for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
        await db().execute(sql`UPDATE mail_outbox SET next_attempt_at = now() WHERE id = ${id}`)
        await delivery.deliverDue()
      }
      expect(await row(id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS })
    } finally {
      await delivery.stop()
    }
    expect([1, 2, 3, 8, 9].map(retryDelaySeconds)).toEqual([30, 60, 120, 3600, 3600])
  })

  it('a started worker delivers a mail queued in a transaction right after the commit', async () => {
    const mailbox = await TestMailbox.start()
    const delivery = deliveryTo(mailbox.url)
    await delivery.start()
    try {
      const to = uniqueEmail('notify')
      await db().transaction(async (tx) => {
        await enqueueMail(tx, { kind: 'test', to, subject: 'After commit', text: 'T' })
      })
      expect((await mailbox.waitFor(to, { timeoutMs: 5000 })).subject).toBe('After commit')
    } finally {
      await delivery.stop()
      await mailbox.close()
    }
  })
})

describe("a mail's secrets (review item 7)", () => {
  const secretMail = (to: string) => ({
    kind: 'login_code',
    to,
    subject: 'Your code',
    text: 'Your code:\n\n424242\n\nBye',
    html: '<p>424242</p>',
    secrets: ['424242'],
    key: mailKeyOf(testApp.config),
  })

  async function stored(id: string) {
    const [found] = await queryRows<{
      subject: string
      text_body: string
      html_body: string
      secrets: string[]
    }>(db(), sql`SELECT subject, text_body, html_body, secrets FROM mail_outbox WHERE id = ${id}`)
    return found!
  }

  it('are sealed while the mail waits, and leave the outbox once it is sent: the recipient got them, the copy says [redacted]', async () => {
    const mailbox = await TestMailbox.start()
    const delivery = deliveryTo(mailbox.url)
    try {
      const to = uniqueEmail('secret')
      const id = await enqueueMail(db(), secretMail(to))
      const waiting = await stored(id)
      expect(JSON.stringify(waiting)).not.toContain('424242')
      expect(waiting.secrets).toHaveLength(1)
      expect(waiting.secrets[0]).toMatch(/^v1:[A-Za-z0-9+/]+=*$/)
      await delivery.deliverDue()
      expect((await mailbox.waitFor(to)).text).toContain('424242')
      const copy = await stored(id)
      expect(JSON.stringify(copy)).not.toContain('424242')
      expect(copy.text_body).toBe('Your code:\n\n[redacted]\n\nBye')
      expect(copy.secrets).toEqual([])
    } finally {
      await delivery.stop()
      await mailbox.close()
    }
  })

  it('without SMTP are printed to the log only outside production, and leave the outbox', async () => {
    for (const logSecrets of [false, true]) {
      const { log, lines } = capturingLogger()
      const delivery = deliveryTo(undefined, { log, logSecrets })
      const to = uniqueEmail('logged')
      const id = await enqueueMail(db(), secretMail(to))
      await delivery.deliverDue()
      await delivery.stop()
      const text = String(lines.find((l) => l.fields.to === to)?.fields?.text)
      expect(text.includes('424242'), `logSecrets ${logSecrets}`).toBe(logSecrets)
      expect(JSON.stringify(await stored(id))).not.toContain('424242')
    }
  })

  it('are never shown to admins, not even while the mail waits', async () => {
    const fresh = await createTestApp()
    try {
      const admin = new TestClient(fresh)
      await admin.signUp()
      const id = await enqueueMail(fresh.database.db, secretMail(uniqueEmail('waiting')))
      const detail = await admin.call(mailOperations.get, { params: { id } })
      expect(detail.body.status).toBe('pending')
      expect(detail.body.text).toContain('[redacted]')
      expect(JSON.stringify(detail.body)).not.toContain('424242')
      expect(JSON.stringify((await admin.call(mailOperations.outbox, {})).body)).not.toContain('424242')
    } finally {
      await fresh.close()
    }
  })

  it('of real sign-in codes, reset links and invitations leave the outbox (a production run without SMTP)', async () => {
    const fresh = await createTestApp({ env: 'production' })
    try {
      const owner = new TestClient(fresh)
      const { email } = await owner.signUp()
      await new TestClient(fresh).call(authOperations.sendCode, { body: { email } })
      await new TestClient(fresh).call(authOperations.requestPasswordReset, { body: { email } })
      const team = await owner.call(teamOperations.create, { body: { name: 'Secrets' } })
      await owner.call(teamOperations.invite, {
        params: { teamId: team.body.id },
        body: { email: uniqueEmail('invitee') },
      })
      const before = await queryRows<{ kind: string; secrets: string[] }>(
        fresh.database.db,
        sql`SELECT kind, secrets FROM mail_outbox ORDER BY kind`,
      )
      expect(before.map((row) => [row.kind, row.secrets.length])).toEqual([
        ['login_code', 1],
        ['password_reset', 1],
        ['team_invitation', 1],
      ])
      // Waiting, they hold no code or link that works: the secrets are sealed.
      const waiting = await queryRows<{ text_body: string; html_body: string }>(
        fresh.database.db,
        sql`SELECT text_body, html_body FROM mail_outbox`,
      )
      for (const row of waiting) {
        const bodies = `${row.text_body}${row.html_body}`
        expect(bodies).not.toMatch(/^\d{6}$/m)
        expect(bodies).not.toMatch(/token_hash=[A-Za-z0-9]|\/invite\/[A-Za-z0-9_-]/)
      }
      for (const row of before) expect(row.secrets[0]).toMatch(/^v1:/)
      await fresh.mail.deliverDue()
      const after = await queryRows<{ status: string; text_body: string; html_body: string }>(
        fresh.database.db,
        sql`SELECT status, text_body, html_body FROM mail_outbox`,
      )
      const secrets = before.flatMap((row) => row.secrets)
      for (const row of after) {
        expect(row.status).toBe('logged')
        expect(row.text_body).toContain('[redacted]')
        for (const secret of secrets) expect(`${row.text_body}${row.html_body}`).not.toContain(secret)
      }
    } finally {
      await fresh.close()
    }
  })
})

describe('the mail outbox for admins', () => {
  it('lists mail (also unsent), shows one, sends a test mail and re-queues a failed one; others get 403', async () => {
    const fresh = await createTestApp()
    try {
      const admin = new TestClient(fresh)
      await admin.signUp()
      const user = new TestClient(fresh)
      await user.signUp()
      expect((await user.call(mailOperations.outbox, {})).status).toBe(403)
      expect((await new TestClient(fresh).call(mailOperations.outbox, {})).status).toBe(401)

      const to = uniqueEmail('admin-test')
      const sent = await admin.call(mailOperations.sendTest, { body: { to } })
      expect(sent.status).toBe(201)
      const list = await admin.call(mailOperations.outbox, {})
      expect(list.body.smtpConfigured).toBe(false)
      expect(list.body.items[0]).toMatchObject({ to, kind: 'test', status: 'pending' })
      expect(list.body.counts.pending).toBeGreaterThanOrEqual(1)
      const filtered = await admin.call(mailOperations.outbox, { query: { to } })
      expect(filtered.body.items).toHaveLength(1)

      const detail = await admin.call(mailOperations.get, { params: { id: sent.body.id } })
      expect(detail.body.text).toContain('test email')
      expect(detail.body.html).toContain('<html')
      expect(
        (await admin.call(mailOperations.get, { params: { id: '00000000-0000-4000-8000-000000000000' } }))
          .status,
      ).toBe(404)
      expect((await admin.call(mailOperations.get, { params: { id: 'not-a-uuid' } })).status).toBe(404)

      expect((await admin.call(mailOperations.retry, { params: { id: sent.body.id } })).status).toBe(409)
      await fresh.database.db.execute(
        sql`UPDATE mail_outbox SET status = 'failed', attempts = 8 WHERE id = ${sent.body.id}`,
      )
      const retried = await admin.call(mailOperations.retry, { params: { id: sent.body.id } })
      expect(retried.body).toMatchObject({ status: 'pending', attempts: 0 })
      expect((await admin.call(mailOperations.sendTest, { body: { to: 'nope' } })).status).toBe(400)
    } finally {
      await fresh.close()
    }
  })
})
