/**
 * The conversation benchmark (issue 5), on the database bench/conversations-seed.ts made:
 * - the messages page (1st and 10,000th, 50 per page) and the conversation list (1st and last
 *   page, 25 per page) through the HTTP API with autocannon at 32 connections;
 * - next to them, the limit: the same SQL statements, captured from one real request, replayed
 *   over 32 direct PostgreSQL connections (once only the page query, once every statement of the
 *   request including the session lookup);
 * - the unloaded latency of single requests for the 1st and the 10,000th messages page.
 * Run: node --import tsx bench/conversations-run.ts   (BENCH_SECONDS=10 per measurement)
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { encodeCursor } from '../src/domain/cursor.ts'
import { createApp } from '../src/server/app.ts'
import { createAuth } from '../src/server/auth/auth.ts'
import { loadConfig } from '../src/server/config.ts'
import { openDatabase } from '../src/server/db/client.ts'
import { createLogger } from '../src/server/log.ts'
import {
  BENCH_URL,
  BIG_CONVERSATION_TITLE,
  sessionCookie,
  startServer,
  withClient,
} from './conversations-support.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = 32
const MESSAGES_PER_PAGE = 50
const CONVERSATIONS_PER_PAGE = 25

interface Stats {
  rps: number
  p50: number
  p99: number
}

// --- the pages to measure -------------------------------------------------------------------------

const keys = await withClient(BENCH_URL, async (db) => {
  const big = (await db.query('SELECT id FROM conversations WHERE title = $1', [BIG_CONVERSATION_TITLE]))
    .rows[0].id as string
  const at = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
  // The cursor that asks for page 10,000 is the key of the last message of page 9,999.
  const page10k = (
    await db.query(
      `SELECT ${at} AS at, id FROM conversation_messages WHERE conversation_id = $1
       ORDER BY created_at, id OFFSET $2 LIMIT 1`,
      [big, 9_999 * MESSAGES_PER_PAGE - 1],
    )
  ).rows[0] as { at: string; id: string }
  const count = Number((await db.query('SELECT count(*) FROM conversations')).rows[0].count)
  const lastPage = Math.ceil(count / CONVERSATIONS_PER_PAGE)
  const listLast = (
    await db.query(
      `SELECT to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id
       FROM conversations ORDER BY updated_at DESC, id DESC OFFSET $1 LIMIT 1`,
      [(lastPage - 1) * CONVERSATIONS_PER_PAGE - 1],
    )
  ).rows[0] as { at: string; id: string }
  return { big, page10k, listLast, lastPage }
})

const targets = [
  { name: 'messages page 1', path: `/api/v1/conversations/${keys.big}/messages` },
  {
    name: 'messages page 10,000',
    path: `/api/v1/conversations/${keys.big}/messages?cursor=${encodeURIComponent(encodeCursor(keys.page10k))}`,
  },
  { name: 'conversation list page 1', path: '/api/v1/conversations' },
  {
    name: `conversation list page ${keys.lastPage}`,
    path: `/api/v1/conversations?cursor=${encodeURIComponent(encodeCursor(keys.listLast))}`,
  },
]

// --- capture the SQL of one request per target, from an in-process app on the same database ------

type Statement = { text: string; values?: unknown[]; rowMode?: string }
const captured: Statement[] = []
let capturing = false
const originalQuery = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (capturing) {
    const [first, second] = args as [string | Statement, unknown[] | undefined]
    captured.push(
      typeof first === 'string'
        ? { text: first, values: second }
        : { ...first, values: first.values ?? second },
    )
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args)
} as typeof pg.Client.prototype.query

async function captureStatements(cookie: string): Promise<Map<string, Statement[]>> {
  const log = createLogger('silent')
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: BENCH_URL,
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-bench',
    APP_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: '.tmp/bench-conversations',
  })
  const database = await openDatabase({ kind: 'postgres', url: BENCH_URL, max: 1 })
  const app = createApp({ config, database, auth: createAuth({ config, db: database.db, log }), log })
  const byTarget = new Map<string, Statement[]>()
  try {
    for (const target of targets) {
      await app.request(target.path, { headers: { cookie } }) // warm-up
      captured.length = 0
      capturing = true
      const res = await app.request(target.path, { headers: { cookie } })
      capturing = false
      if (res.status !== 200) throw new Error(`${target.name}: ${res.status} ${await res.text()}`)
      byTarget.set(target.name, [...captured])
    }
  } finally {
    await database.close()
  }
  return byTarget
}

// --- measurements --------------------------------------------------------------------------------

async function overHttp(url: string, cookie: string): Promise<Stats> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { cookie } })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
}

/** 32 direct connections replaying `statements` in a loop for the same duration. */
async function overSql(statements: Statement[]): Promise<Stats> {
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = new pg.Client({ connectionString: BENCH_URL })
      await client.connect()
      return client
    }),
  )
  const latencies: number[] = []
  const deadline = performance.now() + SECONDS * 1000
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < deadline) {
        const start = performance.now()
        for (const statement of statements) await client.query(statement as pg.QueryConfig)
        latencies.push(performance.now() - start)
      }
    }),
  )
  await Promise.all(clients.map((client) => client.end()))
  return { rps: latencies.length / SECONDS, ...percentiles(latencies) }
}

function percentiles(values: number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  return { p50: round(at(0.5)), p99: round(at(0.99)) }
}

const round = (n: number) => Math.round(n * 100) / 100

/** Single requests one after another: the latency without load. */
async function sequential(url: string, cookie: string, count = 200): Promise<{ p50: number; p99: number }> {
  const latencies: number[] = []
  for (let i = 0; i < count; i += 1) {
    const start = performance.now()
    const res = await fetch(url, { headers: { cookie } })
    await res.arrayBuffer()
    if (!res.ok) throw new Error(`${url}: ${res.status}`)
    latencies.push(performance.now() - start)
  }
  return percentiles(latencies)
}

// --- run -----------------------------------------------------------------------------------------

const server = await startServer()
const results: Record<string, unknown>[] = []
try {
  const { cookie } = await sessionCookie(server.url)
  const statements = await captureStatements(cookie)
  pg.Client.prototype.query = originalQuery

  const unloaded = {
    first: await sequential(`${server.url}${targets[0]!.path}`, cookie),
    tenThousandth: await sequential(`${server.url}${targets[1]!.path}`, cookie),
  }

  for (const target of targets) {
    const all = statements.get(target.name)!
    // The page query: the statement that reads the page's rows.
    const page = all.filter((s) => /ORDER BY/i.test(s.text) && /LIMIT/i.test(s.text))
    if (page.length !== 1) throw new Error(`${target.name}: expected one page query, found ${page.length}`)
    const api = await overHttp(`${server.url}${target.path}`, cookie)
    const sqlPage = await overSql(page)
    const sqlAll = await overSql(all)
    results.push({
      target: target.name,
      statementsPerRequest: all.length,
      api,
      sqlPageQuery: sqlPage,
      sqlAllStatements: sqlAll,
      apiToPageQuery: round(api.rps / sqlPage.rps),
      apiToAllStatements: round(api.rps / sqlAll.rps),
    })
    console.log(
      `${target.name}: API ${api.rps.toFixed(0)} req/s p50 ${api.p50} ms p99 ${api.p99} ms | ` +
        `SQL page query ${sqlPage.rps.toFixed(0)}/s p50 ${sqlPage.p50} ms p99 ${sqlPage.p99} ms | ` +
        `SQL all ${all.length} statements ${sqlAll.rps.toFixed(0)}/s p50 ${sqlAll.p50} ms p99 ${sqlAll.p99} ms | ` +
        `API/limit ${round(api.rps / sqlPage.rps)} (page query), ${round(api.rps / sqlAll.rps)} (all statements)`,
    )
  }
  console.log(
    `unloaded single requests: messages page 1 p50 ${unloaded.first.p50} ms p99 ${unloaded.first.p99} ms; ` +
      `page 10,000 p50 ${unloaded.tenThousandth.p50} ms p99 ${unloaded.tenThousandth.p99} ms`,
  )
  const file = path.resolve(import.meta.dirname, '.results', `conversations-${new Date().toISOString()}.json`)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(
    file,
    JSON.stringify({ seconds: SECONDS, connections: CONNECTIONS, unloaded, results }, null, 2),
  )
  console.log(`results: ${path.relative(process.cwd(), file)}`)
} finally {
  await server.stop()
}
