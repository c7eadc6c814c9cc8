import { afterAll, describe, expect, it } from 'vitest'
import { crashUnderLoad, embeddedCrashDatabase } from './testing/crash-under-load.ts'
import { reportFigures } from './testing/reliability-report.ts'

// kill -9 of the real server process on the embedded database under a mixed write load, then
// restarts and an integrity check (src/server/testing/crash-under-load.ts says what is checked).
// CRASH_WRITES: the acknowledged writes before the kill (npm run test:reliability raises it).
const writes = Number(process.env.CRASH_WRITES ?? 80)
const database = embeddedCrashDatabase()
afterAll(() => database.cleanup())

describe('kill -9 under load, embedded database', () => {
  it(
    'loses no acknowledged write, leaves every prompt, snapshot and queued mail and delivery whole',
    async () => {
      const report = await crashUnderLoad(database, {
        workers: 4,
        writesBeforeKill: writes,
      })
      const { problems, acknowledged, database: _, ...figures } = report
      reportFigures('crash', { ...acknowledged, ...figures, problems: problems.length })
      expect(problems).toEqual([])
    },
    Math.max(180_000, writes * 600),
  )
})
