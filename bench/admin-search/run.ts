import { type ConnectionPlan, RECORDER_CONNECTIONS, SERVER_CONNECTIONS } from '../lib/connections.ts'
import { measureSql, signIn, type Target, unloadedInTurn, withBenchServer } from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { table } from '../lib/stats.ts'
import {
  ADMIN_SEARCH_ADMIN,
  ADMIN_SEARCH_PASSWORD,
  adminSearchSize,
  seedAdminSearch,
  ADMIN_SEARCH_DATABASE_URL as URL,
} from './seed.ts'

/** The goal of every search here: p50 ≤ 20 ms at 1M accounts (decision 0256). */
const GOAL_MS = 20
const searches = [
  { name: 'one common character ("a")', search: 'a' },
  { name: 'one digit ("9")', search: '9' },
  { name: 'two characters ("ab", 1 in 256)', search: 'ab' },
  { name: '4,000 spread over the history ("qq")', search: 'qq' },
  { name: 'the 4,000 oldest only ("xx")', search: 'xx' },
  { name: 'no match ("zz")', search: 'zz' },
  { name: 'three characters, contains ("abc")', search: 'abc' },
]
const COUNT = Number(process.env.BENCH_ADMIN_SEARCH_COUNT ?? 30)

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). The real server, the SQL recorder and one replaying client.
 */
export const adminSearchConnections: ConnectionPlan = {
  databaseUrl: URL,
  holds: { 'app server': SERVER_CONNECTIONS, 'SQL recorder': RECORDER_CONNECTIONS, 'SQL replay': 1 },
}

/**
 * The admin area's account search of one or two characters (a prefix) and of three (contains),
 * at 1M accounts: each search's API latency unloaded (one request at a time, `COUNT` of each in
 * turn after 3 unmeasured) beside the statements of one request replayed from a direct `pg` client.
 */
export async function runAdminSearchBenchmark(): Promise<void> {
  await seedAdminSearch()
  await withBenchServer(URL, async ({ base, recorder }) => {
    const cookie = await signIn(base, ADMIN_SEARCH_ADMIN, ADMIN_SEARCH_PASSWORD)
    const paths = searches.map((s) => `/api/v1/admin/users?search=${encodeURIComponent(s.search)}`)
    const targets: Target[] = paths.map((path) => ({ base, cookie, path }))
    const api = await unloadedInTurn(targets, COUNT, 3)
    const rows: string[][] = []
    const results: Record<string, unknown>[] = []
    for (const [i, s] of searches.entries()) {
      const statements = await recorder.statementsOf(paths[i]!, cookie)
      const sql = await measureSql(URL, [statements], 3, 1)
      const met = api[i]!.p50 <= GOAL_MS
      rows.push([
        s.name,
        api[i]!.p50.toFixed(1),
        api[i]!.p99.toFixed(1),
        sql.p50.toFixed(1),
        met ? 'yes' : 'NO',
      ])
      results.push({ scenario: s.name, path: paths[i], api: api[i], sql, goalMs: GOAL_MS, met })
    }
    console.log(`\nadmin search benchmark: ${adminSearchSize.accounts} accounts, ${COUNT} requests each\n`)
    console.log(table(['search', 'API p50 ms', 'API p99 ms', 'SQL p50 ms', `p50 ≤ ${GOAL_MS} ms`], rows))
    saveResults('admin-search', { ...adminSearchSize, count: COUNT, results })
  })
}
