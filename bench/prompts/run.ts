import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { loadConfig } from '../../src/server/config.ts'
import { BENCH_AUTH_SECRET, BENCH_DATABASE_URL } from '../lib/database.ts'
import { type Statement, sqlRecorder } from '../lib/sql-capture.ts'
import { type Measurement, summarize, table } from '../lib/stats.ts'
import { BENCH_PASSWORD, benchEmail, seed } from './seed.ts'

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const WARMUP_SECONDS = 2
const root = path.resolve(import.meta.dirname, '../..')

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** The real server, as `npm start` runs it, on the benchmark database. */
async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      DATABASE_URL: BENCH_DATABASE_URL,
      AUTH_SECRET: BENCH_AUTH_SECRET,
      // One log line per request would measure the terminal, not the API.
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MULTIPLIER: '1000',
    },
  })
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      if ((await fetch(`http://localhost:${port}/api/health`)).ok) return child
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  child.kill()
  throw new Error('the server did not start')
}

async function signIn(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  })
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
  return res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

interface Scenario {
  name: string
  /** Request paths, used in turn. */
  paths: string[]
}

/** HTTP through the whole stack: autocannon at CONNECTIONS connections. */
async function measureApi(
  base: string,
  cookie: string,
  scenario: Scenario,
  seconds: number,
): Promise<Measurement> {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { cookie },
    requests: scenario.paths.map((p) => ({ method: 'GET', path: p })),
  })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  }
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
}

/** The same statements straight to PostgreSQL from CONNECTIONS `pg` clients: the limit. */
async function measureSql(requests: Statement[][], seconds: number): Promise<Measurement> {
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = new pg.Client({ connectionString: BENCH_DATABASE_URL })
      await client.connect()
      return client
    }),
  )
  const latencies: number[] = []
  let next = 0
  const end = performance.now() + seconds * 1000
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < end) {
        const statements = requests[next++ % requests.length]!
        const start = performance.now()
        for (const statement of statements) await client.query(statement.text, statement.values)
        latencies.push(performance.now() - start)
      }
    }),
  )
  await Promise.all(clients.map((client) => client.end()))
  return summarize(latencies, seconds)
}

/** Which indexes PostgreSQL uses for the prompt statements of a request. */
async function indexesUsed(statements: Statement[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: BENCH_DATABASE_URL })
  await client.connect()
  const names = new Set<string>()
  const walk = (node: Record<string, unknown>) => {
    if (typeof node['Index Name'] === 'string') names.add(node['Index Name'])
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child)
  }
  for (const statement of statements.filter((s) => /"prompt/.test(s.text))) {
    const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${statement.text}`, statement.values)
    walk((rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan)
  }
  await client.end()
  return [...names].filter((name) => name.startsWith('prompt'))
}

/** Picks a typical user, their prompts, a tag they use often and a word from their titles. */
async function scenariosFor(userEmail: string): Promise<Scenario[]> {
  const client = new pg.Client({ connectionString: BENCH_DATABASE_URL })
  await client.connect()
  try {
    const { rows: ids } = await client.query<{ id: string }>(
      `SELECT p.id FROM prompts p JOIN users u ON u.id = p.owner_user_id
       WHERE u.email = $1 ORDER BY p.id LIMIT 100`,
      [userEmail],
    )
    const { rows: tags } = await client.query<{ tag: string }>(
      `SELECT t.tag FROM prompts p JOIN users u ON u.id = p.owner_user_id, unnest(p.tags) AS t(tag)
       WHERE u.email = $1 GROUP BY t.tag ORDER BY count(*) DESC OFFSET 4 LIMIT 1`,
      [userEmail],
    )
    return [
      { name: 'list (my prompts, page 1)', paths: ['/api/v1/prompts'] },
      { name: 'search (title, trigram)', paths: ['/api/v1/prompts?search=email'] },
      { name: `tag filter (${tags[0]!.tag})`, paths: [`/api/v1/prompts?tags=${tags[0]!.tag}`] },
      { name: 'team prompts (2 teams)', paths: ['/api/v1/prompts?scope=team'] },
      { name: 'get with versions', paths: ids.map((row) => `/api/v1/prompts/${row.id}`) },
    ]
  } finally {
    await client.end()
  }
}

export async function runPromptsBenchmark(): Promise<void> {
  await seed()
  const port = await freePort()
  const base = `http://localhost:${port}`
  const server = await startServer(port)
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_URL: base,
    DATABASE_URL: BENCH_DATABASE_URL,
    AUTH_SECRET: BENCH_AUTH_SECRET,
    LOG_LEVEL: 'silent',
  })
  const recorder = await sqlRecorder(config, BENCH_DATABASE_URL)
  try {
    const email = benchEmail(7)
    const cookie = await signIn(base, email)
    const rows: string[][] = []
    const plans: string[] = []
    console.log(
      `\nprompts benchmark: ${CONNECTIONS} connections, ${SECONDS} s per measurement, user ${email}\n`,
    )
    for (const scenario of await scenariosFor(email)) {
      // One request at a time: the recorder attributes statements to the request in flight.
      const statements: Statement[][] = []
      for (const p of scenario.paths) statements.push(await recorder.statementsOf(p, cookie))
      await measureApi(base, cookie, scenario, WARMUP_SECONDS)
      const api = await measureApi(base, cookie, scenario, SECONDS)
      await measureSql(statements, WARMUP_SECONDS)
      const sql = await measureSql(statements, SECONDS)
      const perRequest = statements[0]!.length
      rows.push([
        scenario.name,
        api.requestsPerSecond.toFixed(0),
        api.p50.toFixed(1),
        api.p99.toFixed(1),
        sql.requestsPerSecond.toFixed(0),
        sql.p50.toFixed(1),
        sql.p99.toFixed(1),
        `${((api.requestsPerSecond / sql.requestsPerSecond) * 100).toFixed(0)}%`,
      ])
      plans.push(
        `${scenario.name}: ${perRequest} statements per request; indexes ${(await indexesUsed(statements[0]!)).join(', ')}`,
      )
      console.log(`  measured ${scenario.name}`)
    }
    console.log(
      `\n${table(
        [
          'scenario',
          'API req/s',
          'API p50 ms',
          'API p99 ms',
          'SQL req/s',
          'SQL p50 ms',
          'SQL p99 ms',
          'API/limit',
        ],
        rows,
      )}\n`,
    )
    console.log(plans.join('\n'))
  } finally {
    await recorder.close()
    server.kill('SIGTERM')
  }
}
