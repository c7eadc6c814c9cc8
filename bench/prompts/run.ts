import pg from 'pg'
import {
  type ConnectionPlan,
  FLOOR_CONNECTIONS,
  RECORDER_CONNECTIONS,
  SERVER_CONNECTIONS,
} from '../lib/connections.ts'
import { BENCH_DATABASE_URL } from '../lib/database.ts'
import {
  CONNECTIONS,
  CPU_COLUMNS,
  cpuCells,
  FLOOR_COLUMNS,
  floorCells,
  indexesUsed,
  measureScenario,
  measureSql,
  RESULT_COLUMNS,
  resultCells,
  type Scenario,
  SECONDS,
  shareOf,
  signIn,
  unloadedInTurn,
  withBenchServer,
} from '../lib/harness.ts'
import type { Statement } from '../lib/replay.ts'
import { saveResults } from '../lib/results.ts'
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
      { name: 'search (titles, descriptions, bodies)', paths: ['/api/v1/prompts?search=email'] },
      { name: 'search (part of a word)', paths: ['/api/v1/prompts?search=summar'] },
      { name: `tag filter (${tags[0]!.tag})`, paths: [`/api/v1/prompts?tags=${tags[0]!.tag}`] },
      { name: 'team prompts (2 teams)', paths: ['/api/v1/prompts?scope=team'] },
      { name: 'get with versions', paths: ids.map((row) => `/api/v1/prompts/${row.id}`) },
    ]
  } finally {
    await client.end()
  }
}

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). The real server, the SQL recorder and, while a scenario is measured,
 * its SQL replay and its two floors.
 */
export const promptsConnections: ConnectionPlan = {
  databaseUrl: BENCH_DATABASE_URL,
  holds: {
    'app server': SERVER_CONNECTIONS,
    'SQL recorder': RECORDER_CONNECTIONS,
    'SQL replay': CONNECTIONS,
    'bare floor': FLOOR_CONNECTIONS,
    'Hono floor': FLOOR_CONNECTIONS,
  },
}

export async function runPromptsBenchmark(): Promise<void> {
  await seed()
  await withBenchServer(BENCH_DATABASE_URL, async ({ base, recorder, server }) => {
    const email = benchEmail(7)
    const cookie = await signIn(base, email, BENCH_PASSWORD)
    const rows: string[][] = []
    const plans: string[] = []
    const quiet: string[][] = []
    const cpu: string[][] = []
    const results: Record<string, unknown>[] = []
    console.log(
      `\nprompts benchmark: ${CONNECTIONS} connections, ${SECONDS} s per measurement, user ${email}\n`,
    )
    for (const scenario of await scenariosFor(email)) {
      // One request at a time: the recorder attributes statements to the request in flight.
      const statements: Statement[][] = []
      for (const p of scenario.paths) statements.push(await recorder.statementsOf(p, cookie))
      const { api, floor, honoFloor, sql } = await measureScenario(
        base,
        cookie,
        scenario,
        BENCH_DATABASE_URL,
        statements,
        server,
        { floor: true },
      )
      cpu.push(
        cpuCells(scenario.name, api),
        cpuCells(`${scenario.name}: floor`, floor!),
        cpuCells(`${scenario.name}: Hono floor`, honoFloor!),
      )
      const perRequest = statements[0]!.length
      rows.push([...resultCells(scenario.name, api, sql), ...floorCells(api, floor!, honoFloor!)])
      // Unloaded: one request at a time through HTTP, next to its statements from one client.
      const [apiAlone] = await unloadedInTurn([{ base, cookie, path: scenario.paths[0]! }], 300, 50)
      const sqlAlone = await measureSql(BENCH_DATABASE_URL, [statements[0]!], 3, 1)
      quiet.push([
        scenario.name,
        apiAlone!.p50.toFixed(2),
        sqlAlone.p50.toFixed(2),
        (apiAlone!.p50 - sqlAlone.p50).toFixed(2),
      ])
      results.push({
        scenario: scenario.name,
        statements: perRequest,
        api,
        floor,
        apiOfFloor: shareOf(api, floor!),
        honoFloor,
        apiOfHonoFloor: shareOf(api, honoFloor!),
        sql,
        unloaded: { api: apiAlone, sql: { p50: sqlAlone.p50, p99: sqlAlone.p99 } },
      })
      plans.push(
        `${scenario.name}: ${perRequest} statements per request; indexes ${(await indexesUsed(BENCH_DATABASE_URL, statements[0]!, /"prompt/)).filter((name) => name.startsWith('prompt')).join(', ')}`,
      )
      console.log(`  measured ${scenario.name}`)
    }
    console.log(`\n${table([...RESULT_COLUMNS, ...FLOOR_COLUMNS], rows)}\n`)
    console.log(
      'where the CPU went, per request at the API measurement and at its floors (server, local PostgreSQL, load generator):',
    )
    console.log(`${table(CPU_COLUMNS, cpu)}\n`)
    console.log('unloaded, one request at a time (300 after 50 warm-up; its SQL from one client):')
    console.log(`${table(['scenario', 'API p50 ms', 'SQL p50 ms', 'server adds ms'], quiet)}\n`)
    console.log(plans.join('\n'))
    saveResults('prompts', { connections: CONNECTIONS, seconds: SECONDS, results })
  })
}
