import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as wait } from 'node:timers/promises'
import { type ConnectionPlan, SERVER_CONNECTIONS } from '../lib/connections.ts'
import { ensureBenchDatabase } from '../lib/database.ts'
import { residentMegabytes, startServer, stopServer } from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { percentile, table } from '../lib/stats.ts'

const URL =
  process.env.BENCH_STARTUP_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_startup'
/** How long the server sits idle before its memory is read, on every start. */
const IDLE_SECONDS = 10
/**
 * The first start of each case idles this long before a second reading: V8 gives back the young
 * generation that start-up grew only when its memory reducer finds the allocation rate low, which it
 * averages over the whole start (about 16 s after it on an idle machine), so a reading at 10 s
 * falls before or after that by chance (decision 0281).
 */
const SETTLED_SECONDS = 30
/** Restarts measured per database (the first also idles for the memory): the median is reported. */
const RESTARTS = Number(process.env.BENCH_STARTUP_RESTARTS ?? 5)

interface Start {
  startMs: number
  startCpuMs: number
  idleRssMb: number
}

/**
 * Starts the server, reads its memory after IDLE_SECONDS idle (and, with `settled`, again at
 * SETTLED_SECONDS), stops it; answers its start's figures.
 */
async function measuredStart(
  env: { DATA_DIR: string } | { DATABASE_URL: string },
  settled?: (rssMb: number) => void,
): Promise<Start> {
  const server = await startServer(env)
  let idleRssMb: number
  try {
    await wait(IDLE_SECONDS * 1000)
    idleRssMb = residentMegabytes(server)
    if (settled) {
      await wait((SETTLED_SECONDS - IDLE_SECONDS) * 1000)
      settled(residentMegabytes(server))
    }
  } finally {
    await stopServer(server)
  }
  return { startMs: server.startMs, startCpuMs: server.startCpuMs, idleRssMb }
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  )

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). One server at a time.
 */
export const startupConnections: ConnectionPlan = {
  databaseUrl: URL,
  holds: { 'app server': SERVER_CONNECTIONS },
}

/**
 * The start-up goals, a restart within 1 s and idle under 250 MB: the time from starting the
 * built server to its first 200 on /api/health, with the process's CPU time up to then, on an empty database (migrations run) and
 * on restarts (the median of RESTARTS), and its resident memory after sitting idle, on PGlite and
 * on PostgreSQL. `npm start` adds its build check (a few hundred ms) in front.
 */
export async function runStartupBenchmark(): Promise<void> {
  await ensureBenchDatabase(true, URL)
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pf-bench-startup-'))
  const databases = [
    { database: 'PGlite', env: { DATA_DIR: dataDir } },
    { database: 'PostgreSQL', env: { DATABASE_URL: URL } },
  ]
  const results: {
    database: string
    start: string
    startMs: number
    startCpuMs: number
    idleRssMb: number
    settledRssMb: number
    runs: Start[]
  }[] = []
  try {
    for (const { database, env } of databases) {
      for (const start of ['first (migrations)', 'restart']) {
        let settledRssMb = 0
        const runs = [await measuredStart(env, (rssMb) => (settledRssMb = rssMb))]
        if (start === 'restart') {
          for (let i = 1; i < RESTARTS; i++) runs.push(await measuredStart(env))
        }
        results.push({
          database,
          start,
          startMs: median(runs.map((run) => run.startMs)),
          startCpuMs: median(runs.map((run) => run.startCpuMs)),
          idleRssMb: median(runs.map((run) => run.idleRssMb)),
          settledRssMb,
          runs,
        })
        console.log(`  measured ${database}, ${start}`)
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
  const rows = results.map((r) => [
    r.database,
    r.runs.length > 1 ? `${r.start} (median of ${r.runs.length})` : r.start,
    r.startMs.toFixed(0),
    r.startCpuMs.toFixed(0),
    r.idleRssMb.toFixed(0),
    r.settledRssMb.toFixed(0),
  ])
  console.log(
    `\n${table(['database', 'start', 'to first 200 ms', 'CPU until then ms', `RSS after ${IDLE_SECONDS} s idle MB`, `RSS after ${SETTLED_SECONDS} s MB (first start)`], rows)}\n`,
  )
  saveResults('startup', {
    idleSeconds: IDLE_SECONDS,
    settledSeconds: SETTLED_SECONDS,
    restarts: RESTARTS,
    results,
  })
}
