import { afterAll, beforeAll, vi } from 'vitest'
import { openTestApps } from './test-app.ts'

/**
 * Runs around every API test file. The files of one worker share its process and the modules it
 * imported (`isolate: false`, vitest.config.ts: the app's modules load once per worker, not once
 * per file), so a file must leave the process as it found it. What one could leave behind for the
 * next: a test app still open (its database, its mail and webhook workers), a changed environment
 * variable, a faked clock. vitest itself restores spies and mocks after each file.
 *
 * A leftover is undone here, so that the next file starts clean, and fails the file that left it.
 */
let environment: Record<string, string | undefined> = {}

beforeAll(() => {
  environment = { ...process.env }
})

afterAll(async () => {
  // A test that failed while the clock was faked may not have reached its own useRealTimers().
  vi.useRealTimers()
  const problems: string[] = []

  const apps = openTestApps()
  for (const app of apps) await app.close()
  if (apps.length > 0)
    problems.push(`${apps.length} test app(s) left open (close each one, in afterAll or finally)`)

  const changed = new Set([...Object.keys(environment), ...Object.keys(process.env)])
  for (const name of changed) {
    if (process.env[name] === environment[name]) continue
    problems.push(`process.env.${name} changed and not restored`)
    if (environment[name] === undefined) delete process.env[name]
    else process.env[name] = environment[name]
  }

  if (problems.length > 0) {
    throw new Error(`This file leaves state behind for the next file of its worker:\n${problems.join('\n')}`)
  }
})
