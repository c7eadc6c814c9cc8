import pg from 'pg'
import {
  CONNECTIONS,
  indexesUsed,
  measureScenario,
  RESULT_COLUMNS,
  resultCells,
  type Scenario,
  SECONDS,
  signIn,
  withBenchServer,
} from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { table } from '../lib/stats.ts'
import { BENCH_USER, BIG_TEAM_NAME, seedDashboard, BENCH_DASHBOARD_DATABASE_URL as URL } from './seed.ts'

async function bigTeamId(): Promise<string> {
  const db = new pg.Client({ connectionString: URL })
  await db.connect()
  try {
    return (await db.query('SELECT id FROM teams WHERE name = $1', [BIG_TEAM_NAME])).rows[0].id as string
  } finally {
    await db.end()
  }
}

/**
 * The dashboard benchmark: `GET /api/v1/dashboard` for a user with 10,000 prompts (~20,000
 * versions), 1,000 conversations and 50 teams, in the personal context and in the context of the
 * team holding 2,500 of the shared prompts. Each through the HTTP API (autocannon) and, as the
 * limit, every SQL statement of one real request replayed from direct `pg` clients.
 */
export async function runDashboardBenchmark(): Promise<void> {
  await seedDashboard()
  const teamId = await bigTeamId()
  await withBenchServer(URL, async ({ base, recorder }) => {
    const cookie = await signIn(base, BENCH_USER.email, BENCH_USER.password)
    const list: Scenario[] = [
      { name: 'dashboard, personal', paths: ['/api/v1/dashboard'] },
      { name: 'dashboard, big team', paths: [`/api/v1/dashboard?teamId=${teamId}`] },
    ]
    console.log(`\ndashboard benchmark: ${CONNECTIONS} connections, ${SECONDS} s per measurement\n`)
    const rows: string[][] = []
    const notes: string[] = []
    const results: Record<string, unknown>[] = []
    for (const scenario of list) {
      const statements = await recorder.statementsOf(scenario.paths[0]!, cookie)
      const { api, sql } = await measureScenario(base, cookie, scenario, URL, [statements])
      rows.push(resultCells(scenario.name, api, sql))
      const indexes = await indexesUsed(URL, statements, /prompts|conversations|prompt_versions/)
      notes.push(
        `${scenario.name}: ${statements.length} statements per request; indexes ${indexes.join(', ')}`,
      )
      results.push({ scenario: scenario.name, statements: statements.length, indexes, api, sql })
      console.log(`  measured ${scenario.name}`)
    }
    console.log(`\n${table(RESULT_COLUMNS, rows)}\n`)
    console.log(notes.join('\n'))
    saveResults('dashboard', { connections: CONNECTIONS, seconds: SECONDS, results })
  })
}
