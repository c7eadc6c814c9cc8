import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accountOperations } from '../../domain/api/account.ts'
import { queryRows } from '../db/rows.ts'
import { createLogger } from '../log.ts'
import { TestClient } from '../testing/client.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp({}, { log: createLogger('debug') })
})
afterAll(() => testApp.close())

/** Everything the process writes to stdout and stderr while `run` runs (and its lines flush). */
async function logOutput(run: () => Promise<void>): Promise<string> {
  const written: string[] = []
  const capture = (chunk: unknown) => {
    written.push(String(chunk))
    return true
  }
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture)
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture)
  try {
    await run()
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    stdout.mockRestore()
    stderr.mockRestore()
  }
  return written.join('')
}

describe('the log', () => {
  it('never shows the parameters of a failed query: no session token, from the app or the auth library', async () => {
    const user = new TestClient(testApp)
    const { id } = await user.signUp()
    const [session] = await queryRows<{ token: string }>(
      testApp.database.db,
      sql`SELECT token FROM sessions WHERE user_id = ${id}`,
    )
    const token = session!.token
    const db = testApp.database.db
    // Every query on sessions fails while the table is away; both the app's session check and the
    // auth library's log the failure.
    await db.execute(sql`ALTER TABLE sessions RENAME TO sessions_away`)
    const output = await logOutput(async () => {
      try {
        expect((await user.call(accountOperations.me, {})).status).toBe(500)
        await user.get('/api/auth/get-session')
        await user.post('/api/auth/sign-out')
      } finally {
        await db.execute(sql`ALTER TABLE sessions_away RENAME TO sessions`)
      }
    })
    expect(output).toContain('Failed query')
    expect(output).toContain('auth: Failed to read session from database')
    expect(output).toContain('params: [redacted]')
    expect(output).not.toContain(token)
  })
})
