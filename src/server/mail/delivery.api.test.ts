import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ErrorBody } from '../../domain/errors.ts'
import type { OutboxDetail, OutboxOverview } from '../../domain/mail.ts'
import { queryRows } from '../db/rows.ts'
import { createLogger, type Logger } from '../log.ts'
import { TestClient, uniqueEmail } from '../testing/client.ts'
import { TestMailbox } from '../testing/mailbox.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { createMailDelivery, MAX_ATTEMPTS, retryDelaySeconds } from './delivery.ts'
import { enqueueMail } from './outbox.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

const db = () => testApp.database.db

async function row(id: string) {
  const [found] = await queryRows<{
    status: string
    attempts: number
    last_error: string | null
    next_attempt_at: Date | string
  }>(db(), sql`SELECT status, attempts, last_error, next_attempt_at FROM mail_outbox WHERE id = ${id}`)
  return found!
}

function capturingLogger(): {
  log: Logger
  lines: Array<{ message: string; fields?: Record<string, unknown> }>
} {
  const lines: Array<{ message: string; fields?: Record<string, unknown> }> = []
  const silent = createLogger('silent')
  const log: Logger = {
    ...silent,
    info: (message, fields) => lines.push({ message, fields }),
    warn: (message, fields) => lines.push({ message, fields }),
    child: () => log,
  }
  return { log, lines }
}

describe('mail delivery', () => {
  it('without SMTP_URL prints the mail to the server log and marks it logged', async () => {
    const { log, lines } = capturingLogger()
    const delivery = createMailDelivery({
      database: testApp.database,
      smtpUrl: undefined,
      mailFrom: 'x@y.z',
      log,
    })
    const to = uniqueEmail('log')
    const id = await enqueueMail(db(), { kind: 'test', to, subject: 'Hi', text: 'The body 123' })
    await delivery.deliverDue()
    expect((await row(id)).status).toBe('logged')
    expect(lines.find((l) => l.fields?.to === to)?.fields).toMatchObject({
      subject: 'Hi',
      text: 'The body 123',
    })
    await delivery.stop()
  })

  it('sends multipart mail over SMTP, once, even with two workers racing', async () => {
    const mailbox = await TestMailbox.start()
    const make = () =>
      createMailDelivery({
        database: testApp.database,
        smtpUrl: mailbox.url,
        mailFrom: 'Promptfolio <from@promptfolio.test>',
        log: createLogger('silent'),
      })
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
    const delivery = createMailDelivery({
      database: testApp.database,
      // Nothing listens on port 9 of the loopback: every connection is refused.
      smtpUrl: 'smtp://127.0.0.1:9',
      mailFrom: 'x@y.z',
      log: createLogger('silent'),
    })
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
    const delivery = createMailDelivery({
      database: testApp.database,
      smtpUrl: mailbox.url,
      mailFrom: 'x@y.z',
      log: createLogger('silent'),
    })
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

describe('the mail outbox for admins', () => {
  it('lists mail (also unsent), shows one, sends a test mail and re-queues a failed one; others get 403', async () => {
    const fresh = await createTestApp()
    try {
      const admin = new TestClient(fresh)
      await admin.signUp()
      const user = new TestClient(fresh)
      await user.signUp()
      expect((await user.get<ErrorBody>('/api/v1/mail-outbox')).status).toBe(403)
      expect((await new TestClient(fresh).get('/api/v1/mail-outbox')).status).toBe(401)

      const to = uniqueEmail('admin-test')
      const sent = await admin.post<{ id: string }>('/api/v1/mail-outbox/test', { to })
      expect(sent.status).toBe(201)
      const list = await admin.get<OutboxOverview>('/api/v1/mail-outbox')
      expect(list.body.smtpConfigured).toBe(false)
      expect(list.body.items[0]).toMatchObject({ to, kind: 'test', status: 'pending' })
      expect(list.body.counts.pending).toBeGreaterThanOrEqual(1)
      const filtered = await admin.get<OutboxOverview>(`/api/v1/mail-outbox?to=${encodeURIComponent(to)}`)
      expect(filtered.body.items).toHaveLength(1)

      const detail = await admin.get<{ mail: OutboxDetail }>(`/api/v1/mail-outbox/${sent.body.id}`)
      expect(detail.body.mail.text).toContain('test email')
      expect(detail.body.mail.html).toContain('<html')
      expect((await admin.get('/api/v1/mail-outbox/00000000-0000-4000-8000-000000000000')).status).toBe(404)
      expect((await admin.get('/api/v1/mail-outbox/not-a-uuid')).status).toBe(404)

      expect((await admin.post<ErrorBody>(`/api/v1/mail-outbox/${sent.body.id}/retry`)).status).toBe(409)
      await fresh.database.db.execute(
        sql`UPDATE mail_outbox SET status = 'failed', attempts = 8 WHERE id = ${sent.body.id}`,
      )
      const retried = await admin.post<{ mail: { status: string; attempts: number } }>(
        `/api/v1/mail-outbox/${sent.body.id}/retry`,
      )
      expect(retried.body.mail).toMatchObject({ status: 'pending', attempts: 0 })
      expect((await admin.post('/api/v1/mail-outbox/test', { to: 'nope' })).status).toBe(400)
    } finally {
      await fresh.close()
    }
  })
})
