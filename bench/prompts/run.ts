import pg from 'pg'
import { loadConfig } from '../../src/server/config.ts'
import { BENCH_AUTH_SECRET, BENCH_DATABASE_URL } from '../lib/database.ts'
import {
  CONNECTIONS,
  indexesUsed,
  measureApi,
  measureSql,
  type Scenario,
  SECONDS,
  signIn,
  startServer,
  WARMUP_SECONDS,
} from '../lib/harness.ts'
import { type Statement, sqlRecorder } from '../lib/sql-capture.ts'
import { table } from '../lib/stats.ts'
import { BENCH_PASSWORD, benchEmail, seed } from './seed.ts'

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
  const server = await startServer(BENCH_DATABASE_URL)
  const base = server.base
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
    const cookie = await signIn(base, email, BENCH_PASSWORD)
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
      await measureSql(BENCH_DATABASE_URL, statements, WARMUP_SECONDS)
      const sql = await measureSql(BENCH_DATABASE_URL, statements, SECONDS)
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
        `${scenario.name}: ${perRequest} statements per request; indexes ${(await indexesUsed(BENCH_DATABASE_URL, statements[0]!, /"prompt/)).filter((name) => name.startsWith('prompt')).join(', ')}`,
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
    server.process.kill('SIGTERM')
  }
}
