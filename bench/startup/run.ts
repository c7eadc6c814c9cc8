import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as wait } from 'node:timers/promises'
import { ensureBenchDatabase } from '../lib/database.ts'
import { residentMegabytes, startServer, stopServer } from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { table } from '../lib/stats.ts'

const URL =
  process.env.BENCH_STARTUP_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_startup'
/** How long the server sits idle before its memory is read. */
const IDLE_SECONDS = 10

/**
 * Issue 2's figures: the time from starting the built server to its first 200 on /api/health, on
 * an empty database (migrations run) and on a restart, and its resident memory after sitting idle,
 * on PGlite and on PostgreSQL. `npm start` adds its build check (a few hundred ms) in front.
 */
export async function runStartupBenchmark(): Promise<void> {
  await ensureBenchDatabase(true, URL)
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pf-bench-startup-'))
  const runs = [
    { database: 'PGlite', start: 'first (migrations)', env: { DATA_DIR: dataDir } },
    { database: 'PGlite', start: 'restart', env: { DATA_DIR: dataDir } },
    { database: 'PostgreSQL', start: 'first (migrations)', env: { DATABASE_URL: URL } },
    { database: 'PostgreSQL', start: 'restart', env: { DATABASE_URL: URL } },
  ]
  const results: { database: string; start: string; startMs: number; idleRssMb: number }[] = []
  try {
    for (const run of runs) {
      const server = await startServer(run.env)
      try {
        await wait(IDLE_SECONDS * 1000)
        results.push({ ...run, startMs: server.startMs, idleRssMb: residentMegabytes(server) })
      } finally {
        await stopServer(server)
      }
      console.log(`  measured ${run.database}, ${run.start}`)
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
  const rows = results.map((r) => [r.database, r.start, r.startMs.toFixed(0), r.idleRssMb.toFixed(0)])
  console.log(
    `\n${table(['database', 'start', 'to first 200 ms', `RSS after ${IDLE_SECONDS} s idle MB`], rows)}\n`,
  )
  saveResults('startup', { idleSeconds: IDLE_SECONDS, results })
}
