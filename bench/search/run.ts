import { type ConnectionPlan, RECORDER_CONNECTIONS, SERVER_CONNECTIONS } from '../lib/connections.ts'
import { measureSql, signIn, type Target, unloadedInTurn, withBenchServer } from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { table } from '../lib/stats.ts'
import { SEARCH_PASSWORD, SEARCH_USER, searchSize, seedSearch, SEARCH_DATABASE_URL as URL } from './seed.ts'

/** What is searched, and the p50 goal of each (milliseconds, PostgreSQL). */
const searches = [
  { name: 'common word ("the")', search: 'the', goal: 200 },
  { name: 'rare word ("ref12345")', search: 'ref12345', goal: 50 },
  { name: 'part of a word ("summar")', search: 'summar', goal: 300 },
  // Older versions are searched only on request; their figures only with BENCH_SEARCH_ALL_VERSIONS=1.
  ...(process.env.BENCH_SEARCH_ALL_VERSIONS === '1'
    ? [
        { name: 'common word, every version', search: 'the', versions: 'all', goal: undefined },
        { name: 'rare word, every version', search: 'ref12345', versions: 'all', goal: undefined },
      ]
    : []),
]
const COUNT = Number(process.env.BENCH_SEARCH_COUNT ?? 20)

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). The real server, the SQL recorder and one replaying client.
 */
export const searchConnections: ConnectionPlan = {
  databaseUrl: URL,
  holds: { 'app server': SERVER_CONNECTIONS, 'SQL recorder': RECORDER_CONNECTIONS, 'SQL replay': 1 },
}

/**
 * Body search in one space of 1M versions (decision 0255): each search's API latency unloaded
 * (one request at a time, `COUNT` of each in turn after 2 unmeasured), beside the statements of
 * one request replayed from a direct `pg` client (the SQL alone).
 */
export async function runSearchBenchmark(): Promise<void> {
  await seedSearch()
  await withBenchServer(URL, async ({ base, recorder }) => {
    const cookie = await signIn(base, SEARCH_USER, SEARCH_PASSWORD)
    const paths = searches.map(
      (s) =>
        `/api/v1/prompts?search=${encodeURIComponent(s.search)}${s.versions ? `&versions=${s.versions}` : ''}`,
    )
    const targets: Target[] = paths.map((path) => ({ base, cookie, path }))
    const api = await unloadedInTurn(targets, COUNT, 2)
    const rows: string[][] = []
    const results: Record<string, unknown>[] = []
    for (const [i, s] of searches.entries()) {
      const statements = await recorder.statementsOf(paths[i]!, cookie)
      const sql = await measureSql(URL, [statements], 3, 1)
      rows.push([
        s.name,
        api[i]!.p50.toFixed(1),
        api[i]!.p99.toFixed(1),
        sql.p50.toFixed(1),
        s.goal === undefined ? '–' : `≤ ${s.goal}`,
      ])
      results.push({ scenario: s.name, path: paths[i], api: api[i], sql, goal: s.goal })
    }
    console.log(
      `\nsearch benchmark: ${searchSize.prompts} prompts × ${searchSize.versions} versions in one space, ${COUNT} requests each\n`,
    )
    console.log(table(['search', 'API p50 ms', 'API p99 ms', 'SQL p50 ms', 'goal p50 ms'], rows))
    saveResults('search', { ...searchSize, count: COUNT, results })
  })
}
