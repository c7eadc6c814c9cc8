import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authOperations } from '../../domain/api/auth.ts'
import { teamOperations } from '../../domain/api/teams.ts'
import { queryRows } from '../db/rows.ts'
import { TestClient, uniqueEmail } from '../testing/client.ts'
import { TestMailbox } from '../testing/mailbox.ts'
import { freePort } from '../testing/server-process.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'

// The "SMTP down" reliability check: the app's SMTP server is unreachable (nothing listens on its port), then
// up but refusing (421 to every connection), then back. The user actions that queue mail answer as
// usual throughout; the mail waits in the outbox and goes out, once, when SMTP is back.
let testApp: TestApp
let port: number
beforeAll(async () => {
  port = await freePort()
  // The worker runs as in production: woken by the queueing commit, retrying with back-off.
  testApp = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` })
})
afterAll(() => testApp.close())

interface OutboxRow extends Record<string, unknown> {
  to_address: string
  status: string
  attempts: number
  last_error: string | null
}

const rows = (addresses: string[]) =>
  queryRows<OutboxRow>(
    testApp.database.db,
    sql`SELECT to_address, status, attempts, last_error FROM mail_outbox
        WHERE to_address = ANY (ARRAY[${sql.join(
          addresses.map((a) => sql`${a}`),
          sql`, `,
        )}]::text[]) ORDER BY to_address`,
  )

/** Polls until `check` holds for the rows (the worker runs on its own). */
async function untilRows(addresses: string[], check: (rows: OutboxRow[]) => boolean): Promise<OutboxRow[]> {
  for (;;) {
    const found = await rows(addresses)
    if (check(found)) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The back-off's wait, skipped: the next attempt is due now. */
async function retryNow(): Promise<void> {
  await testApp.database.db.execute(
    sql`UPDATE mail_outbox SET next_attempt_at = now() WHERE status = 'pending'`,
  )
  await testApp.mail.deliverDue()
}

describe('SMTP down', () => {
  it('keeps the mail queued while SMTP is unreachable or refusing, and sends it once when it is back', async () => {
    const owner = new TestClient(testApp)
    const ownerEmail = uniqueEmail('smtp-owner')
    await owner.signUp(ownerEmail)
    const team = await owner.call(teamOperations.create, { body: { name: 'Mail' } })
    const invitee = uniqueEmail('smtp-invitee')

    // Unreachable: the actions that queue mail answer as always.
    const invite = await owner.call(teamOperations.invite, {
      params: { teamId: team.body.id },
      body: { email: invitee, role: 'member' },
    })
    expect(invite.status).toBe(201)
    const reset = await new TestClient(testApp).call(authOperations.requestPasswordReset, {
      body: { email: ownerEmail },
    })
    expect(reset.status).toBe(200)
    const addresses = [ownerEmail, invitee].sort()
    // A leased row already counts its attempt but still holds the error before it (or none): wait
    // for the attempt's own failure, or for a later attempt (which the assertions then refuse).
    const failed = (attempt: number, error: RegExp) => (found: OutboxRow[]) =>
      found.every((r) => r.attempts > attempt || (r.attempts === attempt && error.test(r.last_error ?? '')))
    const refused = await untilRows(
      addresses,
      (found) => found.length === 2 && failed(1, /ECONNREFUSED/)(found),
    )
    for (const row of refused) {
      expect(row).toMatchObject({ status: 'pending', attempts: 1 })
      expect(row.last_error).toMatch(/ECONNREFUSED/)
    }

    // Up but refusing every connection.
    const mailbox = await TestMailbox.start(port)
    try {
      mailbox.refusing = true
      await retryNow()
      // The worker may have claimed a row before retryNow did; its attempt then ends on its own.
      for (const row of await untilRows(addresses, failed(2, /421/))) {
        expect(row).toMatchObject({ status: 'pending', attempts: 2 })
        expect(row.last_error).toMatch(/421/)
      }
      // Meanwhile the app keeps answering: another invitation is queued behind the first.
      const second = uniqueEmail('smtp-second')
      expect(
        (
          await owner.call(teamOperations.invite, {
            params: { teamId: team.body.id },
            body: { email: second, role: 'member' },
          })
        ).status,
      ).toBe(201)
      addresses.push(second)

      // Back: every queued mail goes out, once.
      mailbox.refusing = false
      await retryNow()
      await untilRows(addresses, (found) => found.every((row) => row.status === 'sent'))
      for (const address of addresses) expect(mailbox.to(address)).toHaveLength(1)
      await retryNow()
      for (const address of addresses) expect(mailbox.to(address)).toHaveLength(1)
    } finally {
      await mailbox.close()
    }
  })
})
