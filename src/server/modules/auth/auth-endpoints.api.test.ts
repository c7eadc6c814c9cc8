import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../../domain/api/account.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let testApp: TestApp
let admin: TestClient
let user: TestClient
beforeAll(async () => {
  testApp = await createTestApp()
  admin = new TestClient(testApp)
  await admin.signUp() // the first account: a global admin
  user = new TestClient(testApp)
  await user.signUp()
})
afterAll(() => testApp.close())

describe('GET /api/v1/sessions', () => {
  it("lists the caller's own live sessions, the current one marked, without any token", async () => {
    const email = `sessions-${crypto.randomUUID()}@example.com`
    const first = new TestClient(testApp)
    await first.signUp(email)
    const second = new TestClient(testApp)
    await second.signIn(email)
    const res = await second.call(accountOperations.sessions, {})
    expect(res.status).toBe(200)
    expect(res.body.items).toHaveLength(2)
    expect(res.body.items.map((item) => item.current)).toEqual([true, false])
    expect(Object.keys(res.body.items[0]!).sort()).toEqual(
      ['createdAt', 'current', 'expiresAt', 'id', 'ipAddress', 'userAgent'].sort(),
    )
    expect(JSON.stringify(res.body)).not.toMatch(/token/i)
    // Another account's sessions are not among them.
    expect((await user.call(accountOperations.sessions, {})).body.items).toHaveLength(1)
    expect((await new TestClient(testApp).call(accountOperations.sessions, {})).status).toBe(401)
  })
})

describe("better-auth's own endpoints", () => {
  it('redirect nowhere outside the app (verify-email used to follow any callbackURL)', async () => {
    for (const callbackURL of ['https://evil.example/phish', '//evil.example']) {
      const res = await new TestClient(testApp).get(
        `/api/auth/verify-email?token=abc&callbackURL=${encodeURIComponent(callbackURL)}`,
      )
      expect(res.headers.get('location'), callbackURL).toBeNull()
      expect(res.status, callbackURL).toBe(404)
    }
  })

  it.each([
    // Would set an unbounded "name" (shown as the display name) past the profile's rules.
    ['POST', '/api/auth/update-user', { name: 'x'.repeat(5000) }],
    // Would change or test the password without the app's per-account limits and messages.
    [
      'POST',
      '/api/auth/change-password',
      { currentPassword: 'correct horse battery staple', newPassword: 'another long password' },
    ],
    ['POST', '/api/auth/verify-password', { password: 'correct horse battery staple' }],
    ['POST', '/api/auth/set-password', { newPassword: 'another long password' }],
    ['POST', '/api/auth/link-social', { provider: 'google' }],
    ['POST', '/api/auth/unlink-account', { providerId: 'credential' }],
    ['GET', '/api/auth/list-accounts', undefined],
    ['POST', '/api/auth/send-verification-email', { email: 'someone@example.com' }],
    ['POST', '/api/auth/request-password-reset', { email: 'someone@example.com' }],
    ['POST', '/api/auth/revoke-sessions', {}],
  ])(
    '%s %s is closed to users (the app has its own route or does not offer it)',
    async (method, path, body) => {
      const res = await user.request(method, path, { body })
      expect(res.status).toBe(404)
      expect(errorOf(res).code).toBe('not_found')
    },
  )

  it.each([
    ['/api/auth/admin/impersonate-user'],
    ['/api/auth/admin/create-user'],
    ['/api/auth/admin/remove-user'],
    ['/api/auth/admin/set-role'],
    ['/api/auth/admin/set-user-password'],
  ])('%s is closed even to global admins (the app offers its own admin routes)', async (path) => {
    const res = await admin.post(path, { userId: user.user!.id, role: 'global_admin' })
    expect(res.status).toBe(404)
    expect((await user.call(accountOperations.me, {})).body.globalRole).toBe('user')
  })

  it('answer their own refusals (a wrong method, a body that is not JSON) as 4xx, never 500', async () => {
    const wrongMethod = await user.post('/api/auth/error', {})
    expect(wrongMethod.status).toBe(404)
    expect(errorOf(wrongMethod).code).toBe('not_found')
    const notJson = await user.request('POST', '/api/auth/sign-in/social', {
      rawBody: 'provider=google',
      headers: { 'Content-Type': 'text/plain' },
    })
    expect(notJson.status).toBe(400)
    expect(errorOf(notJson).code).toBe('validation')
  })

  it('keeps what the web app uses: other sessions, sign-out; not the answers that carry tokens', async () => {
    const me = new TestClient(testApp)
    await me.signUp()
    expect((await me.get('/api/auth/get-session')).status).toBe(404)
    expect((await me.get('/api/auth/list-sessions')).status).toBe(404)
    expect((await me.post('/api/auth/revoke-other-sessions', {})).status).toBe(200)
    expect((await me.post('/api/auth/sign-out', {})).status).toBe(200)
    expect((await me.call(accountOperations.me, {})).status).toBe(401)
  })
})
