import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../domain/api/account.ts'
import { authOperations } from '../../domain/api/auth.ts'
import { operationUrl } from '../../domain/api/operation.ts'
import { createApp } from '../app.ts'
import { createLogger } from '../log.ts'
import { DEFAULT_PASSWORD, uniqueEmail } from '../testing/client.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts'
import { createAuth } from './auth.ts'
import { resolveAuthSecret } from './instance-secret.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

/** Another app process on the same database, with the given secret (null: the installation's). */
async function processOnSameDatabase(authSecret: string | null) {
  const config = {
    ...testApp.config,
    authSecret: await resolveAuthSecret(testApp.database.db, { authSecret }),
  }
  const log = createLogger('silent')
  return createApp({
    config,
    database: testApp.database,
    auth: createAuth({ config, db: testApp.database.db, log }),
    log,
  }).app
}

describe('the auth secret without AUTH_SECRET on PostgreSQL', () => {
  it('is generated once per installation, even by processes starting together', async () => {
    const secrets = await Promise.all(
      Array.from({ length: 5 }, () => resolveAuthSecret(testApp.database.db, { authSecret: null })),
    )
    expect(new Set(secrets).size).toBe(1)
    expect(secrets[0]!.length).toBeGreaterThanOrEqual(32)
    expect(await resolveAuthSecret(testApp.database.db, { authSecret: 'configured'.repeat(4) })).toBe(
      'configured'.repeat(4),
    )
  })

  it('lets a session made on one process work on another', async () => {
    const [first, second] = [await processOnSameDatabase(null), await processOnSameDatabase(null)]
    const headers = { Origin: TEST_ORIGIN, 'Content-Type': 'application/json' }
    const signUp = await first.request(operationUrl(authOperations.signUp.spec), {
      method: 'POST',
      headers,
      body: JSON.stringify({
        email: uniqueEmail('scale'),
        password: DEFAULT_PASSWORD,
        confirmPassword: DEFAULT_PASSWORD,
        acceptTerms: true,
      }),
    })
    expect(signUp.status).toBe(201)
    const cookie = signUp.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const me = (app: ReturnType<typeof createApp>['app']) =>
      app.request(operationUrl(accountOperations.me.spec), { headers: { ...headers, Cookie: cookie } })
    expect((await me(second)).status).toBe(200)
    // What two processes with secrets of their own did: the other one knows no such session.
    expect((await me(await processOnSameDatabase('another'.repeat(5)))).status).toBe(401)
  })
})
