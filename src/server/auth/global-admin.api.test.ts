import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../domain/api/account.ts'
import { authOperations } from '../../domain/api/auth.ts'
import type { CurrentUser } from '../../domain/auth.ts'
import { TestClient, uniqueEmail } from '../testing/client.ts'
import { codeOf, TestMailbox } from '../testing/mailbox.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { adminSetupWarning } from './global-admin.ts'

/**
 * Review item 12: the first account became global admin silently, and the testing-only admin
 * password reset was always on.
 */
let mailbox: TestMailbox
beforeAll(async () => {
  mailbox = await TestMailbox.start()
})
afterAll(() => mailbox.close())

async function withApp(overrides: Parameters<typeof createTestApp>[0], run: (app: TestApp) => Promise<void>) {
  const app = await createTestApp(overrides)
  try {
    await run(app)
  } finally {
    await app.close()
  }
}

const role = async (client: TestClient) => (await client.call(accountOperations.me, {})).body.globalRole

async function signInByCode(app: TestApp, email: string): Promise<{ client: TestClient; user: CurrentUser }> {
  const client = new TestClient(app)
  const before = mailbox.to(email).length
  await client.call(authOperations.sendCode, { body: { email } })
  const code = codeOf(await mailbox.waitFor(email, { after: before }))
  const res = await client.call(authOperations.verifyCode, { body: { email, code } })
  return { client, user: res.body.user }
}

describe('ADMIN_EMAIL', () => {
  it('makes that account global admin once its address is proven, and not the first account', async () => {
    const adminEmail = uniqueEmail('owner')
    await withApp({ adminEmail, smtpUrl: mailbox.url }, async (app) => {
      const first = new TestClient(app)
      expect((await first.signUp()).globalRole).toBe('user')

      // A password sign-up proves nothing: whoever knew the address could have made it.
      const byPassword = new TestClient(app)
      expect((await byPassword.signUp(adminEmail)).globalRole).toBe('user')
      expect(await role(byPassword)).toBe('user')

      const { client, user } = await signInByCode(app, adminEmail)
      expect(user.globalRole).toBe('global_admin')
      expect(await role(client)).toBe('global_admin')
      expect(await role(first)).toBe('user')
      expect(await adminSetupWarning(app.database.db, app.config)).toBeNull()
    })
  })

  it('takes a password sign-up as enough when no mail can prove the address (no SMTP_URL)', async () => {
    const adminEmail = uniqueEmail('owner')
    await withApp({ adminEmail }, async (app) => {
      await new TestClient(app).signUp()
      const owner = new TestClient(app)
      expect((await owner.signUp(adminEmail)).globalRole).toBe('global_admin')
    })
  })

  it('promotes an existing account at its next proven sign-in', async () => {
    const adminEmail = uniqueEmail('owner')
    await withApp({ smtpUrl: mailbox.url }, async (app) => {
      await new TestClient(app).signUp()
      await signInByCode(app, adminEmail)
      // Set later (a restart with ADMIN_EMAIL), the address signs in again, after the resend pause.
      app.config.adminEmail = adminEmail
      await app.database.db.execute(
        sql`DELETE FROM rate_limits WHERE key = ${`code-send:cooldown:${adminEmail}`}`,
      )
      expect((await signInByCode(app, adminEmail)).user.globalRole).toBe('global_admin')
    })
  })
})

describe('without ADMIN_EMAIL', () => {
  it('the first account still becomes global admin, and the start-up log says so loudly', async () => {
    await withApp({}, async (app) => {
      expect(await adminSetupWarning(app.database.db, app.config)).toMatch(
        /ADMIN_EMAIL is not set: the FIRST ACCOUNT TO SIGN UP becomes the global admin/,
      )
      const first = await new TestClient(app).signUp()
      expect(first.globalRole).toBe('global_admin')
      expect(await adminSetupWarning(app.database.db, app.config)).toBe(
        `ADMIN_EMAIL is not set: the first account (${first.email}) is this installation's global admin. Set ADMIN_EMAIL in production.`,
      )
    })
  })
})

describe('the admin password reset (/temp-reset)', () => {
  it('does not exist in production', async () => {
    await withApp({ env: 'production' }, async (app) => {
      const admin = new TestClient(app)
      await admin.signUp()
      const victim = uniqueEmail('victim')
      await new TestClient(app).signUp(victim)
      const res = await admin.call(authOperations.adminSetPassword, {
        body: { email: victim, newPassword: 'a brand new passphrase 42' },
      })
      expect(res.status).toBe(404)
      expect((await new TestClient(app).signIn(victim, 'a brand new passphrase 42')).status).toBe(401)
      const providers = await admin.call(authOperations.providers, {})
      expect(providers.body.adminPasswordReset).toBe(false)
    })
  })
})
