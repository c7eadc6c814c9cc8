import { createApp } from '../../src/server/app.ts'
import { createAuth } from '../../src/server/auth/auth.ts'
import { loadConfig } from '../../src/server/config.ts'
import { openDatabase } from '../../src/server/db/client.ts'
import { createLogger } from '../../src/server/log.ts'
import { BENCH_AUTH_SECRET } from './database.ts'

/**
 * Signs accounts up through the app in-process (so their passwords work for signing in), after
 * applying the migrations; answers their ids. The installation's first account is global admin.
 */
export async function signUpAccounts(
  databaseUrl: string,
  emails: string[],
  password: string,
): Promise<string[]> {
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: BENCH_AUTH_SECRET,
      LOG_LEVEL: 'silent',
    }),
    rateLimitMultiplier: 1_000_000,
  }
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl })
  await database.migrate()
  const log = createLogger('silent')
  const { app } = createApp({ config, database, auth: createAuth({ config, db: database.db, log }), log })
  const ids: string[] = []
  try {
    for (const email of emails) {
      const res = await app.request('/api/v1/auth/sign-up', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: config.appUrl },
        body: JSON.stringify({ email, password, confirmPassword: password, acceptTerms: true }),
      })
      if (res.status !== 201) throw new Error(`sign-up of ${email} failed: ${res.status} ${await res.text()}`)
      ids.push(((await res.json()) as { user: { id: string } }).user.id)
    }
  } finally {
    await database.close()
  }
  return ids
}
