import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { authOperations } from '../../../domain/api/auth.ts'
import { auditLog } from '../../db/schema/index.ts'
import { TestClient, uniqueEmail } from '../../testing/client.ts'
import { linkOf, TestMailbox } from '../../testing/mailbox.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/** The emailed-link reset (it needs a mailbox, so its own app): recorded once, by the account. */
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

it('a reset through the emailed link is recorded with the account and the browser’s address', async () => {
  const email = uniqueEmail('reset')
  const owner = new TestClient(testApp)
  const user = await owner.signUp(email)
  const reset = await new TestClient(testApp).call(authOperations.requestPasswordReset, { body: { email } })
  expect(reset.status).toBe(200)
  const token = new URL(linkOf(await mailbox.waitFor(email), '/auth/confirm')).searchParams.get('token_hash')
  const browser = new TestClient(testApp, { ip: '192.0.2.77' })
  expect((await browser.call(authOperations.openRecovery, { body: { tokenHash: token! } })).status).toBe(200)
  const resets = () =>
    testApp.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.password_reset'), eq(auditLog.objectId, user.id)))
  // A refused attempt (passwords differ) is no reset.
  const mismatch = await browser.call(authOperations.recoverPassword, {
    body: { password: NEW_PASSWORD, confirmPassword: 'something else' },
  })
  expect(mismatch.status).toBe(400)
  expect(await resets()).toEqual([])
  const done = await browser.call(authOperations.recoverPassword, {
    body: { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
  })
  expect(done.status).toBe(200)
  const rows = await resets()
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({
    actorKind: 'user',
    actorUserId: user.id,
    actorEmail: email,
    clientAddress: '192.0.2.77',
    after: { method: 'reset_link', sessionsEnded: true },
  })
})
