import { createHash } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import { type ConnectionPlan, SERVER_CONNECTIONS } from '../lib/connections.ts'
import { signIn, startServer, stopServer, unloadedInTurn } from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { table } from '../lib/stats.ts'
import { GROWTH_ADMIN, GROWTH_PASSWORD, GROWTH_USER, growthSizes, seedGrowth } from './seed.ts'

/** The goal: each list's p50 at the large size within this factor of its p50 at the small one. */
const LIMIT = 1.5
const REQUESTS = Number(process.env.BENCH_GROWTH_REQUESTS ?? 300)
const WARMUP = 50

/** A seeded row's id, as seed.ts makes it: md5 of its name with uuid version 4 and the RFC variant. */
function seededId(text: string): string {
  const md5 = createHash('md5').update(text).digest('hex')
  const hex = `${md5.slice(0, 12)}4${md5.slice(13, 16)}8${md5.slice(17)}`
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

interface List {
  name: string
  path: string
  as: 'user' | 'admin'
}

/** The benchmark user owns 1% of the prompts and conversations; conversation 0 and team 0 are theirs. */
const lists: List[] = [
  { name: 'prompts list (mine, page 1)', path: '/api/v1/prompts', as: 'user' },
  { name: 'prompts search ("email")', path: '/api/v1/prompts?search=email', as: 'user' },
  { name: 'prompts tag filter (marketing)', path: '/api/v1/prompts?tags=marketing', as: 'user' },
  { name: 'team prompts (2 teams)', path: '/api/v1/prompts?scope=team', as: 'user' },
  { name: 'conversations list', path: '/api/v1/conversations', as: 'user' },
  {
    name: 'messages page 1',
    path: `/api/v1/conversations/${seededId('conversation0')}/messages`,
    as: 'user',
  },
  { name: 'team audit log', path: `/api/v1/teams/${seededId('team0')}/audit-log`, as: 'user' },
  { name: 'audit log (admin)', path: '/api/v1/audit-log', as: 'admin' },
  { name: 'users list (admin)', path: '/api/v1/admin/users', as: 'admin' },
  { name: 'users search (admin)', path: '/api/v1/admin/users?search=growth-42', as: 'admin' },
]

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). A real server a size (the seed's clients are closed before they
 * start).
 */
export const growthConnections: ConnectionPlan = {
  databaseUrl: growthSizes[0]!.url,
  holds: { 'app servers (one a size)': growthSizes.length * SERVER_CONNECTIONS },
}

/**
 * The growth benchmark: the same data at two sizes (10k and 1M rows a list, see seed.ts),
 * the real server on each, and every list's unloaded latency (one request at a time, REQUESTS
 * after WARMUP) at both sizes, a request to each size in turn so that the machine's load weighs on
 * both alike. Prints each list's p50 ratio and flags those over LIMIT.
 */
export async function runGrowthBenchmark(): Promise<void> {
  for (const size of growthSizes) await seedGrowth(size)
  const servers = await Promise.all(growthSizes.map((size) => startServer({ DATABASE_URL: size.url })))
  try {
    const cookies = await Promise.all(
      servers.map(async (server) => ({
        user: await signIn(server.base, GROWTH_USER, GROWTH_PASSWORD),
        admin: await signIn(server.base, GROWTH_ADMIN, GROWTH_PASSWORD),
      })),
    )
    const [small, large] = growthSizes as [(typeof growthSizes)[0], (typeof growthSizes)[0]]
    const loadBefore = loadavg()
    console.log(
      `\ngrowth benchmark: ${small.rows} vs ${large.rows} rows a list, one request at a time, ` +
        `${REQUESTS} after ${WARMUP} warm-up; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores\n`,
    )
    const rows: string[][] = []
    const results: Record<string, unknown>[] = []
    for (const list of lists) {
      const [at, atLarge] = (await unloadedInTurn(
        servers.map((server, s) => ({ base: server.base, cookie: cookies[s]![list.as], path: list.path })),
        REQUESTS,
        WARMUP,
      )) as [{ p50: number; p99: number }, { p50: number; p99: number }]
      const ratio = atLarge.p50 / at.p50
      rows.push([
        list.name,
        at.p50.toFixed(1),
        at.p99.toFixed(1),
        atLarge.p50.toFixed(1),
        atLarge.p99.toFixed(1),
        `${ratio.toFixed(2)}×`,
        ratio > LIMIT ? `over ${LIMIT}×` : 'ok',
      ])
      results.push({ list: list.name, path: list.path, [small.label]: at, [large.label]: atLarge, ratio })
    }
    const loadAfter = loadavg()
    const header = [
      'list',
      `${small.label} p50 ms`,
      `${small.label} p99 ms`,
      `${large.label} p50 ms`,
      `${large.label} p99 ms`,
      'p50 ratio',
      `≤ ${LIMIT}×`,
    ]
    console.log(`${table(header, rows)}\n`)
    console.log(`load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`)
    const file = saveResults('growth', {
      sizes: growthSizes.map(({ label, rows }) => ({ label, rows })),
      requests: REQUESTS,
      warmup: WARMUP,
      load: { before: loadBefore, after: loadAfter, cores: cpus().length },
      results,
    })
    console.log(`results: ${file}`)
  } finally {
    await Promise.all(servers.map(stopServer))
  }
}
