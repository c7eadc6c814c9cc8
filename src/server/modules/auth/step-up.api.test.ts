import { and, eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { accountOperations } from '../../../domain/api/account.ts'
import { adminOperations } from '../../../domain/api/admin.ts'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { authOperations } from '../../../domain/api/auth.ts'
import { mailOperations } from '../../../domain/api/mail.ts'
import { operationUrl } from '../../../domain/api/operation.ts'
import { planOperations } from '../../../domain/api/plans.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { webhookOperations } from '../../../domain/api/webhooks.ts'
import { runtimeCacheOf } from '../../cache/runtime-cache.ts'
import { apiKeys, auditLog, mailOutbox, webhookEndpoints } from '../../db/schema/index.ts'
import { unlinkable } from '../../mail/render.ts'
import {
  DEFAULT_PASSWORD,
  errorOf,
  TestClient,
  type TestResponse,
  uniqueEmail,
} from '../../testing/client.ts'
import { codeOf, linkOf, TestMailbox } from '../../testing/mailbox.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let mailbox: TestMailbox
let testApp: TestApp
let globalAdmin: TestClient
const db = () => testApp.database.db

beforeAll(async () => {
  mailbox = await TestMailbox.start()
  testApp = await createTestApp({
    smtpUrl: mailbox.url,
    mailFrom: 'Promptfolio <auth@promptfolio.test>',
    webhookAllowPrivate: true,
  })
  // Without ADMIN_EMAIL the first account is the global admin.
  globalAdmin = new TestClient(testApp)
  await globalAdmin.signUp()
})
afterEach(() => {
  vi.useRealTimers()
})
afterAll(async () => {
  await testApp.close()
  await mailbox.close()
})

/** Moves the client's sign-in back by `minutes`, as if it had happened then: no waiting. */
async function signedInAgo(client: TestClient, minutes: number) {
  await db().execute(
    sql`UPDATE sessions SET created_at = now() - make_interval(mins => ${minutes}) WHERE user_id = ${client.user!.id}`,
  )
  // Written behind the app's back: its next request must not find the session as it kept it.
  await runtimeCacheOf(db())!.heardAllCommitted()
}

/** The first mail to `email` with `subject` from index `from` on (notices may arrive in between). */
async function mailWith(email: string, subject: string, from = 0) {
  for (let index = from; ; index++) {
    const mail = await mailbox.waitFor(email, { after: index })
    if (mail.subject === subject) return mail
  }
}
const CODE_SUBJECT = 'Your Promptfolio sign-in code'

async function signedUp(client = new TestClient(testApp)) {
  await client.signUp()
  return client
}

const createKey = (client: TestClient, body: Record<string, unknown> = {}) =>
  client.call(apiKeyOperations.create, { body: { name: 'CI', ...body } })
const createWebhook = (client: TestClient, body: Record<string, unknown> = {}) =>
  client.call(webhookOperations.create, {
    body: { url: 'http://127.0.0.1:9/hook', events: ['prompt.created'], ...body },
  })

function expectReauthenticationRequired(res: TestResponse, message?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(403)
  const error = errorOf(res)
  expect(error.code).toBe('forbidden')
  expect(error.reason).toBe('reauthentication_required')
  if (message) expect(error.message).toBe(message)
}

describe('actions that leave a lasting way in need a recent sign-in', () => {
  it('a fresh sign-in counts as recent: keys and webhooks are created at once', async () => {
    const owner = await signedUp()
    expect((await createKey(owner)).status).toBe(201)
    expect((await createWebhook(owner)).status).toBe(201)
  })

  it('a sign-in older than 10 minutes cannot create a key or a webhook, nor see or rotate a secret', async () => {
    const owner = await signedUp()
    const created = (await createWebhook(owner)).body
    await signedInAgo(owner, 11)

    expectReauthenticationRequired(
      await createKey(owner),
      'For your security, please confirm it is you: sign in again (password or emailed code) to continue.',
    )
    expectReauthenticationRequired(await createWebhook(owner))
    const params = { id: created.id }
    expectReauthenticationRequired(await owner.call(webhookOperations.revealSecret, { params }))
    expectReauthenticationRequired(await owner.call(webhookOperations.rotateSecret, { params }))
    expectReauthenticationRequired(
      await owner.call(webhookOperations.update, { params, body: { url: 'http://127.0.0.1:9/elsewhere' } }),
    )
    const german = await owner.copy({ locale: 'de' }).call(apiKeyOperations.create, { body: { name: 'CI' } })
    expectReauthenticationRequired(
      german,
      'Zu deiner Sicherheit: Bitte bestätige, dass du es bist, und melde dich erneut an (Passwort oder Code per E-Mail).',
    )
    // Nothing was made, and the session itself still works for everything else.
    const keys = await db().select().from(apiKeys).where(eq(apiKeys.ownerUserId, owner.user!.id))
    expect(keys).toHaveLength(0)
    expect((await owner.call(apiKeyOperations.list, {})).status).toBe(200)
    expect((await owner.call(webhookOperations.list, {})).status).toBe(200)
    expect((await owner.call(webhookOperations.delete, { params })).status).toBe(204)
  })

  it('the password signs in again: a new session, recent, replaces the old one', async () => {
    const owner = await signedUp()
    await signedInAgo(owner, 11)
    const stolen = owner.copy()

    const wrong = await owner.call(authOperations.reauthenticate, { body: { password: 'not my password' } })
    expect(wrong.status).toBe(400)
    expect(errorOf(wrong).fields).toEqual({ password: 'The password is not correct.' })
    expectReauthenticationRequired(await createKey(owner))

    const res = await owner.call(authOperations.reauthenticate, { body: { password: DEFAULT_PASSWORD } })
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(owner.user!.id)
    expect((await createKey(owner)).status).toBe(201)
    // The session that was asked to sign in again has ended.
    expect((await stolen.call(accountOperations.me, {})).status).toBe(401)
  })

  it('the window closes 10 minutes after the re-authentication', async () => {
    const owner = await signedUp()
    await signedInAgo(owner, 11)
    await owner.call(authOperations.reauthenticate, { body: { password: DEFAULT_PASSWORD } })
    await signedInAgo(owner, 9)
    expect((await createKey(owner)).status).toBe(201)
    await signedInAgo(owner, 11)
    expectReauthenticationRequired(await createKey(owner))
  })

  it('an account without a password signs in again with an emailed code', async () => {
    const email = uniqueEmail('stepup-code')
    const owner = new TestClient(testApp)
    const before = mailbox.to(email).length
    await owner.call(authOperations.sendCode, { body: { email } })
    const signedIn = await owner.call(authOperations.verifyCode, {
      body: { email, code: codeOf(await mailbox.waitFor(email, { after: before })) },
    })
    owner.user = signedIn.body.user
    await signedInAgo(owner, 11)
    expectReauthenticationRequired(await createWebhook(owner))

    const noPassword = await owner.call(authOperations.reauthenticate, {
      body: { password: DEFAULT_PASSWORD },
    })
    expect(noPassword.status).toBe(400)

    const sentBefore = mailbox.to(email).length
    // The per-address pause between two codes has passed (only Date is moved on).
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 61_000)
    const sent = await owner.call(authOperations.sendReauthenticationCode, {})
    expect(sent.status).toBe(200)
    const code = codeOf(await mailWith(email, CODE_SUBJECT, sentBefore))
    const wrongCode = code === '000000' ? '111111' : '000000'
    expect(
      (await owner.call(authOperations.reauthenticateWithCode, { body: { code: wrongCode } })).status,
    ).toBe(400)
    const res = await owner.call(authOperations.reauthenticateWithCode, { body: { code } })
    expect(res.status).toBe(200)
    expect(res.body.user.email).toBe(email)
    expect((await createWebhook(owner)).status).toBe(201)
  })

  it('a global admin’s changes need it too; reading does not', async () => {
    const someone = await signedUp()
    await signedInAgo(globalAdmin, 11)
    expect((await globalAdmin.call(adminOperations.stats, {})).status).toBe(200)
    expectReauthenticationRequired(
      await globalAdmin.call(adminOperations.setRole, {
        params: { userId: someone.user!.id },
        body: { role: 'global_admin' },
      }),
    )
    expectReauthenticationRequired(
      await globalAdmin.call(planOperations.adminSetPlan, {
        body: { context: 'personal', subjectId: someone.user!.id, plan: null },
      }),
    )
    expectReauthenticationRequired(
      await globalAdmin.call(mailOperations.sendTest, { body: { to: 'someone@example.com' } }),
    )
    await globalAdmin.call(authOperations.reauthenticate, { body: { password: DEFAULT_PASSWORD } })
    const granted = await globalAdmin.call(adminOperations.setRole, {
      params: { userId: someone.user!.id },
      body: { role: 'global_admin' },
    })
    expect(granted.status).toBe(200)
  })
})

describe('a new key or webhook is announced by mail', () => {
  it('to the owner of a personal one', async () => {
    const owner = await signedUp()
    await owner.call(accountOperations.updateProfile, { body: { locale: 'de' } })
    const key = (await createKey(owner, { name: 'Deploy bot' })).body
    const mails = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, owner.user!.email), eq(mailOutbox.kind, 'api_key_created')))
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toBe('Ein neuer Promptfolio-API-Schlüssel wurde erstellt')
    expect(mails[0]!.textBody).toContain('"Deploy bot"')
    expect(mails[0]!.textBody).not.toContain(key.secretKey)

    await createWebhook(owner, { url: 'http://127.0.0.1:9/personal-notice' })
    const hook = await mailWith(owner.user!.email, 'Ein neuer Promptfolio-Webhook-Endpunkt wurde erstellt')
    // Others' words reach mail as plain text no client links (the endpoint's address included).
    expect(hook.text).toContain(unlinkable('http://127.0.0.1:9/personal-notice'))
    expect(linkOf(hook, '/settings/webhooks')).toBeTruthy()
  })

  it('to every admin of the team for a team’s', async () => {
    const admin = await signedUp()
    const otherAdmin = await signedUp()
    const member = await signedUp()
    const teamId = await insertTeam(db(), 'Notice team', [
      { userId: admin.user!.id, role: 'admin' },
      { userId: otherAdmin.user!.id, role: 'admin' },
      { userId: member.user!.id },
    ])
    expect((await createKey(admin, { teamId })).status).toBe(201)
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'api_key_created'))
    const to = mails.map((mail) => mail.toAddress)
    expect(to).toContain(admin.user!.email)
    expect(to).toContain(otherAdmin.user!.email)
    expect(to).not.toContain(member.user!.email)
    const notice = mails.find((mail) => mail.toAddress === otherAdmin.user!.email)!
    expect(notice.textBody).toContain('"Notice team"')
    expect(notice.textBody).toContain(`"${admin.user!.email}"`)
  })

  it('is not queued when the creation is refused', async () => {
    const owner = await signedUp()
    await signedInAgo(owner, 11)
    await createKey(owner)
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, owner.user!.email))
    expect(mails.filter((mail) => mail.kind === 'api_key_created')).toHaveLength(0)
  })
})

describe('a password change or reset may revoke the account’s keys and webhooks', () => {
  const NEW_PASSWORD = 'a brand new passphrase 42'

  async function withAccess() {
    const owner = await signedUp()
    const member = await signedUp()
    const teamId = await insertTeam(db(), 'Revoke team', [
      { userId: owner.user!.id, role: 'admin' },
      { userId: member.user!.id, role: 'admin' },
    ])
    const personalKey = (await createKey(owner)).body
    const teamKey = (await createKey(owner, { teamId })).body
    const othersKey = (await createKey(member, { teamId })).body
    const hook = (await createWebhook(owner)).body
    const teamHook = (await createWebhook(owner, { teamId })).body
    return { owner, keys: [personalKey, teamKey], othersKey, hooks: [hook, teamHook] }
  }

  async function liveKeys(ids: string[]) {
    const rows = await db().select().from(apiKeys)
    return rows.filter((row) => ids.includes(row.id) && row.revokedAt === null).map((row) => row.id)
  }
  async function enabledHooks(ids: string[]) {
    const rows = await db().select().from(webhookEndpoints)
    return rows.filter((row) => ids.includes(row.id) && row.enabled).map((row) => row.id)
  }

  it('the direct change with revokeAccess revokes its keys and disables its webhooks, audited', async () => {
    const { owner, keys, othersKey, hooks } = await withAccess()
    const res = await new TestClient(testApp).call(authOperations.directReset, {
      body: {
        email: owner.user!.email,
        currentPassword: DEFAULT_PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
        revokeAccess: true,
      },
    })
    expect(res.status).toBe(200)
    expect(await liveKeys(keys.map((k) => k.id))).toEqual([])
    expect(await liveKeys([othersKey.id])).toEqual([othersKey.id])
    expect(await enabledHooks(hooks.map((h) => h.id))).toEqual([])
    const revoked = await testApp.app.request(operationUrl(promptOperations.list.spec), {
      headers: { Authorization: `Bearer ${keys[0]!.secretKey}` },
    })
    expect(revoked.status).toBe(401)

    const entries = await db().select().from(auditLog).where(eq(auditLog.actorUserId, owner.user!.id))
    const reset = entries.find((entry) => entry.action === 'auth.password_reset')
    expect(reset?.after).toMatchObject({ accessRevoked: { apiKeys: 2, webhooks: 2 } })
    expect(entries.filter((entry) => entry.action === 'api_key.revoked')).toHaveLength(2)
  })

  it('without it, keys and webhooks stay', async () => {
    const { owner, keys, hooks } = await withAccess()
    await new TestClient(testApp).call(authOperations.directReset, {
      body: {
        email: owner.user!.email,
        currentPassword: DEFAULT_PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
    })
    expect(await liveKeys(keys.map((k) => k.id))).toHaveLength(2)
    expect(await enabledHooks(hooks.map((h) => h.id))).toHaveLength(2)
  })

  it('the reset by emailed link with revokeAccess does the same', async () => {
    const { owner, keys, hooks } = await withAccess()
    const email = owner.user!.email
    const before = mailbox.to(email).length
    await new TestClient(testApp).call(authOperations.requestPasswordReset, { body: { email } })
    const link = new URL(
      linkOf(await mailWith(email, 'Reset your Promptfolio password', before), '/auth/confirm'),
    )
    const browser = new TestClient(testApp)
    await browser.call(authOperations.openRecovery, {
      body: { tokenHash: link.searchParams.get('token_hash')! },
    })
    const invalid = await browser.callUnchecked(authOperations.recoverPassword, {
      body: { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, revokeAccess: 'yes' },
    })
    expect(invalid.status).toBe(400)
    expect(await liveKeys(keys.map((k) => k.id))).toHaveLength(2)
    const res = await browser.call(authOperations.recoverPassword, {
      body: { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, revokeAccess: true },
    })
    expect(res.status).toBe(200)
    expect(await liveKeys(keys.map((k) => k.id))).toEqual([])
    expect(await enabledHooks(hooks.map((h) => h.id))).toEqual([])
  })
})
