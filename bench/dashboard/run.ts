import { cpus, loadavg } from 'node:os'
import pg from 'pg'
import { loadConfig } from '../../src/server/config.ts'
import { type ConnectionPlan, RECORDER_CONNECTIONS, SERVER_CONNECTIONS } from '../lib/connections.ts'
import { BENCH_AUTH_SECRET } from '../lib/database.ts'
import {
  type BenchServer,
  CONNECTIONS,
  indexesUsed,
  measureScenario,
  RESULT_COLUMNS,
  resultCells,
  SECONDS,
  signIn,
  startServer,
  stopServer,
  unloadedInTurn,
} from '../lib/harness.ts'
import type { Statement } from '../lib/replay.ts'
import { saveResults } from '../lib/results.ts'
import { sqlRecorder } from '../lib/sql-capture.ts'
import { table } from '../lib/stats.ts'
import {
  BENCH_USER,
  BIG_TEAM_NAME,
  DASHBOARD_SIZES,
  dashboardDatabaseUrl,
  seedDashboard,
  sizeLabel,
} from './seed.ts'

/** The goals: p50 within GOAL_MS from GOAL_FROM prompts on, and within LIMIT× from the smallest size to the largest. */
const GOAL_MS = 50
const GOAL_FROM = 100_000
const LIMIT = 1.5
const REQUESTS = Number(process.env.BENCH_DASHBOARD_REQUESTS ?? 200)
const WARMUP = 30
/** Runs of each statement when timing them one by one. */
const STATEMENT_RUNS = 7

async function bigTeamId(url: string): Promise<string> {
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    return (await db.query('SELECT id FROM teams WHERE name = $1', [BIG_TEAM_NAME])).rows[0].id as string
  } finally {
    await db.end()
  }
}

interface Context {
  name: string
  path: (url: string) => Promise<string>
}

const contexts: Context[] = [
  { name: 'dashboard, personal', path: async () => '/api/v1/dashboard' },
  { name: 'dashboard, big team', path: async (url) => `/api/v1/dashboard?teamId=${await bigTeamId(url)}` },
]

/** The recorder of one request's SQL on a size's database (the app in-process). */
async function recorderFor(server: BenchServer, url: string) {
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_URL: server.base,
    DATABASE_URL: url,
    AUTH_SECRET: BENCH_AUTH_SECRET,
    LOG_LEVEL: 'silent',
  })
  return sqlRecorder(config, url)
}

/**
 * Each statement of one request run alone at every size (`requests[s]`: the statements at size s,
 * the same in the same order): the median of STATEMENT_RUNS after one warm-up, the sizes in turn
 * statement by statement, so that the machine's load weighs on all alike. Answers ms per size per statement.
 */
async function statementTimes(urls: string[], requests: Statement[][]): Promise<number[][]> {
  const clients = await Promise.all(
    urls.map(async (url) => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      return client
    }),
  )
  try {
    const runs = requests.map((statements) => statements.map((): number[] => []))
    for (let round = 0; round <= STATEMENT_RUNS; round++) {
      for (const i of requests[0]!.keys()) {
        for (const [s, client] of clients.entries()) {
          const { text, values } = requests[s]![i]!
          const start = performance.now()
          await client.query({ text, values })
          if (round > 0) runs[s]![i]!.push(performance.now() - start)
        }
      }
    }
    return runs.map((perStatement) =>
      perStatement.map((times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!),
    )
  } finally {
    await Promise.all(clients.map((client) => client.end()))
  }
}

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). A real server a size, and at the first size the SQL recorder and the
 * SQL replay under load.
 */
export const dashboardConnections: ConnectionPlan = {
  databaseUrl: dashboardDatabaseUrl(DASHBOARD_SIZES[0]!),
  holds: {
    'app servers (one a size)': DASHBOARD_SIZES.length * SERVER_CONNECTIONS,
    'SQL recorder': RECORDER_CONNECTIONS,
    'SQL replay': CONNECTIONS,
  },
}

/**
 * The dashboard benchmark: `GET /api/v1/dashboard` in the personal context and in the context of
 * the team holding a quarter of the prompts, at each size of BENCH_DASHBOARD_SIZES (prompts in the
 * user's space, one database each, see seed.ts). Per size, the real server and the unloaded latency
 * (one request at a time, REQUESTS after WARMUP, the sizes' servers in turn so that the machine's
 * load weighs on all alike); flags a p50 over GOAL_MS from GOAL_FROM prompts on and a ratio over
 * LIMIT from the smallest size to the largest. Each statement of one request timed alone at every
 * size (the three slowest at the largest size named). At the first size only, the HTTP API under load (autocannon)
 * against the same request's SQL replayed from direct `pg` clients: the limit.
 */
export async function runDashboardBenchmark(): Promise<void> {
  const sizes = DASHBOARD_SIZES
  for (const size of sizes) await seedDashboard(size)
  const urls = sizes.map(dashboardDatabaseUrl)
  const labels = sizes.map(sizeLabel)
  const servers: BenchServer[] = []
  try {
    for (const url of urls) servers.push(await startServer({ DATABASE_URL: url }))
    const cookies = await Promise.all(
      servers.map((server) => signIn(server.base, BENCH_USER.email, BENCH_USER.password)),
    )
    const paths = await Promise.all(contexts.map((context) => Promise.all(urls.map(context.path))))
    const loadBefore = loadavg()
    console.log(
      `\ndashboard benchmark: ${labels.join(', ')} prompts, one request at a time, ${REQUESTS} after ${WARMUP} ` +
        `warm-up; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores\n`,
    )
    const unloadedRows: string[][] = []
    const unloaded: Record<string, unknown>[] = []
    for (const [c, context] of contexts.entries()) {
      const at = await unloadedInTurn(
        servers.map((server, s) => ({ base: server.base, cookie: cookies[s]!, path: paths[c]![s]! })),
        REQUESTS,
        WARMUP,
      )
      const ratio = at.at(-1)!.p50 / at[0]!.p50
      const slow = sizes.filter((size, s) => size >= GOAL_FROM && at[s]!.p50 > GOAL_MS).map(sizeLabel)
      const flags = [
        ...(slow.length > 0 ? [`p50 over ${GOAL_MS} ms at ${slow.join(', ')}`] : []),
        ...(sizes.length > 1 && ratio > LIMIT ? [`ratio over ${LIMIT}×`] : []),
      ]
      const verdict = flags.length > 0 ? flags.join('; ') : 'ok'
      unloadedRows.push([
        context.name,
        ...at.flatMap(({ p50, p99 }) => [p50.toFixed(1), p99.toFixed(1)]),
        `${ratio.toFixed(2)}×`,
        verdict,
      ])
      unloaded.push({
        context: context.name,
        ...Object.fromEntries(labels.map((label, s) => [label, at[s]])),
        ratio,
        goal: verdict,
      })
    }
    const loadAfter = loadavg()
    console.log(
      `${table(
        [
          'context',
          ...labels.flatMap((label) => [`${label} p50 ms`, `${label} p99 ms`]),
          `p50 ${labels.at(-1)}/${labels[0]}`,
          `p50 ≤ ${GOAL_MS} ms from ${sizeLabel(GOAL_FROM)}, ratio ≤ ${LIMIT}×`,
        ],
        unloadedRows,
      )}\n`,
    )
    console.log(`load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}\n`)

    // Where a request's time goes: its statements one by one at every size (the same statements in
    // the same order, their values aside), the slowest at the largest size named.
    const last = sizes.length - 1
    const slowest: Record<string, unknown>[] = []
    for (const [c, context] of contexts.entries()) {
      const requests: Statement[][] = []
      for (const [s, url] of urls.entries()) {
        const recorder = await recorderFor(servers[s]!, url)
        try {
          requests.push(await recorder.statementsOf(paths[c]![s]!, cookies[s]!))
        } finally {
          await recorder.close()
        }
      }
      const statements = requests[last]!
      if (requests.some((request) => request.length !== statements.length))
        throw new Error(`${context.name}: the sizes ran different statements`)
      const perSize = await statementTimes(urls, requests)
      const totals = perSize.map((times) => times.reduce((sum, ms) => sum + ms, 0).toFixed(1))
      console.log(
        `${context.name}: ${statements.length} statements, alone ${totals.map((ms, s) => `${ms} ms at ${labels[s]}`).join(', ')}; slowest at ${labels[last]}:`,
      )
      const order = [...statements.keys()].sort((a, b) => perSize[last]![b]! - perSize[last]![a]!).slice(0, 3)
      for (const [rank, i] of order.entries()) {
        const sql = statements[i]!.text.replace(/\s+/g, ' ').slice(0, 160)
        console.log(`  ${perSize.map((times) => times[i]!.toFixed(2)).join(' / ')} ms  ${sql}`)
        slowest.push({
          context: context.name,
          rank: rank + 1,
          ms: Object.fromEntries(labels.map((label, s) => [label, perSize[s]![i]])),
          sql,
        })
      }
    }

    // The API under load against its SQL, at the first size only (a short run).
    console.log(
      `\nAPI under load at ${labels[0]}: ${CONNECTIONS} connections, ${SECONDS} s per measurement\n`,
    )
    const rows: string[][] = []
    const notes: string[] = []
    const results: Record<string, unknown>[] = []
    const recorder = await recorderFor(servers[0]!, urls[0]!)
    try {
      for (const [c, context] of contexts.entries()) {
        const path = paths[c]![0]!
        const statements = await recorder.statementsOf(path, cookies[0]!)
        const { api, sql } = await measureScenario(
          servers[0]!.base,
          cookies[0]!,
          { name: context.name, paths: [path] },
          urls[0]!,
          [statements],
        )
        rows.push(resultCells(context.name, api, sql))
        const indexes = await indexesUsed(urls[0]!, statements, /prompts|conversations|prompt_versions/)
        notes.push(
          `${context.name}: ${statements.length} statements per request; indexes ${indexes.join(', ')}`,
        )
        results.push({ scenario: context.name, statements: statements.length, indexes, api, sql })
        console.log(`  measured ${context.name}`)
      }
    } finally {
      await recorder.close()
    }
    console.log(`\n${table(RESULT_COLUMNS, rows)}\n`)
    console.log(notes.join('\n'))
    const file = saveResults('dashboard', {
      sizes: sizes.map((prompts, s) => ({ label: labels[s], prompts })),
      goals: { p50Ms: GOAL_MS, fromPrompts: GOAL_FROM, ratio: LIMIT },
      requests: REQUESTS,
      warmup: WARMUP,
      load: { before: loadBefore, after: loadAfter, cores: cpus().length },
      unloaded,
      slowestStatements: slowest,
      underLoad: { prompts: sizes[0], connections: CONNECTIONS, seconds: SECONDS, results },
    })
    console.log(`results: ${file}`)
  } finally {
    await Promise.all(servers.map(stopServer))
  }
}
