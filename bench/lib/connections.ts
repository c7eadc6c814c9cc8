import pg from 'pg'
import { POSTGRES_POOL_SIZE } from '../../src/server/db/client.ts'

/**
 * PostgreSQL connections: the budget of a benchmark.
 *
 * One PostgreSQL server (`max_connections`, 100 on a default install) serves everything on the
 * machine: the API tests on PostgreSQL, another benchmark, psql. A benchmark declares what it holds
 * at once at most (`ConnectionPlan`, beside its code in bench/<name>/run.ts), summed from these parts:
 *
 *   app server (`startServer`)       SERVER_CONNECTIONS = the app's pool (POSTGRES_POOL_SIZE, 10)
 *                                    + its health probe (1) + its LISTEN connections (mail, webhooks,
 *                                    runtime cache: 3) = 14
 *   in-process test app (bench:plans) TEST_APP_CONNECTIONS = a test app's pool (20) + 1 + 3 = 24
 *   SQL recorder (`sqlRecorder`)      RECORDER_CONNECTIONS = its pool (2) + the runtime cache's LISTEN (1) = 3
 *   each floor (`bareFloor`: bare     FLOOR_CONNECTIONS = the app's pool size, 10: a floor runs
 *     and Hono)                      the app's statements through as many connections as the app
 *   SQL replay (`measureScenario`,    BENCH_CONNECTIONS (32): one per load connection, as autocannon's
 *     `measureSql`)
 *   a direct `pg` client              1 each (a lookup, `indexesUsed`, a seed)
 *
 * The sum must stay within CONNECTION_BUDGET (`BENCH_MAX_CONNECTIONS`, default 72: the prompts
 * benchmark at the defaults holds 68, the dashboard's two sizes 62), which leaves the rest of the
 * server's connections to the tests and psql. Before a benchmark starts, `reserveConnections`
 * checks that the server has that many free and waits a while for them, else fails saying who
 * holds them; `npm run bench` checks after each benchmark that it closed every connection it
 * opened (`PGAPPNAME`, `APPLICATION_NAME`) before the next one starts. The sizes of the parts are
 * what the figures rest on (the floor has the app's pool): a plan over the budget is refused, not
 * shrunk; lower BENCH_CONNECTIONS or raise BENCH_MAX_CONNECTIONS.
 */
export const CONNECTION_BUDGET = Number(process.env.BENCH_MAX_CONNECTIONS ?? 72)

/** The app's LISTEN connections: mail delivery, webhook delivery and the runtime cache (`database.listen`). */
const LISTENERS = 3
export const SERVER_CONNECTIONS = POSTGRES_POOL_SIZE + 1 + LISTENERS
/** src/server/testing/test-app.ts opens its PostgreSQL pool with `max: 20`. */
export const TEST_APP_CONNECTIONS = 20 + 1 + LISTENERS
export const RECORDER_CONNECTIONS = 3
export const FLOOR_CONNECTIONS = POSTGRES_POOL_SIZE

/** What a benchmark holds at once at most on the shared PostgreSQL server. */
export interface ConnectionPlan {
  /** One of its databases there (for the server's address); null when it uses none there. */
  databaseUrl: string | null
  /** Connections by what holds them (SERVER_CONNECTIONS, ...). */
  holds: Record<string, number>
}

/** Every connection a benchmark run opens says so (node-postgres reads PGAPPNAME; the servers inherit it). */
export const APPLICATION_NAME = `promptfolio bench ${process.pid}`

/** A benchmark that cannot have its connections: its message says why, without a stack. */
export class BenchConnectionError extends Error {
  override name = 'BenchConnectionError'
}

export function connectionsOf(plan: ConnectionPlan): number {
  return Object.values(plan.holds).reduce((sum, count) => sum + count, 0)
}

function describeHolds(plan: ConnectionPlan): string {
  return Object.entries(plan.holds)
    .map(([what, count]) => `${what} ${count}`)
    .join(', ')
}

/** PostgreSQL refused a connection for want of free slots (SQLSTATE 53300), anywhere in `error`'s causes. */
export function isTooManyClients(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 10; depth++) {
    if (cause instanceof AggregateError && cause.errors.some(isTooManyClients)) return true
    const { code, message } = cause as { code?: unknown; message?: unknown }
    if (code === '53300') return true
    if (
      typeof message === 'string' &&
      /too many clients|remaining connection slots are reserved/.test(message)
    ) {
      return true
    }
    cause = (cause as { cause?: unknown }).cause
  }
  return false
}

/** The server at `url`'s address, for messages. */
function serverOf(url: string): string {
  const { hostname, port } = new URL(url)
  return `PostgreSQL at ${hostname}:${port || 5432}`
}

export interface ConnectionUse {
  /** The connections this role may have: max_connections, less the superusers' reserve for others. */
  max: number
  /** Client connections open, this check's own excluded. */
  used: number
  /** Open connections by database, then by application_name. */
  holders: { database: string; application: string; count: number }[]
}

/**
 * A client of the server at `url`, on its maintenance database (the benchmark's own may not exist
 * yet); a connection refused for want of slots is a BenchConnectionError.
 */
async function connected(url: string): Promise<pg.Client> {
  const maintenance = new URL(url)
  maintenance.pathname = '/postgres'
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 10_000 })
  try {
    await client.connect()
    return client
  } catch (error) {
    await client.end().catch(() => {})
    if (isTooManyClients(error)) throw tooManyClients(url)
    throw error
  }
}

/** What to say when the server at `url` refused a connection: every slot is taken. */
export function tooManyClients(url: string, what = 'this benchmark'): BenchConnectionError {
  return new BenchConnectionError(
    `${serverOf(url)} refused ${what} a connection: all of its max_connections are in use (too many clients). Another benchmark or test run holds them: wait for it to end, then start again.`,
  )
}

/** Who holds the client connections of the server at `url`. */
export async function connectionUse(url: string): Promise<ConnectionUse> {
  const client = await connected(url)
  try {
    const limits = await client.query<{ max: number; reserved: number; superuser: boolean }>(
      `SELECT current_setting('max_connections')::int AS max,
              current_setting('superuser_reserved_connections')::int AS reserved,
              (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser`,
    )
    const { rows } = await client.query<{ database: string; application: string; count: number }>(
      `SELECT coalesce(datname, '') AS database, application_name AS application, count(*)::int AS count
       FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
       GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2`,
    )
    const { max, reserved, superuser } = limits.rows[0]!
    return {
      max: superuser ? max : max - reserved,
      used: rows.reduce((sum, row) => sum + row.count, 0),
      holders: rows,
    }
  } finally {
    await client.end()
  }
}

/** `promptfolio_bench 12 (promptfolio bench 4242 10), test 30` */
export function describeHolders(holders: ConnectionUse['holders']): string {
  const byDatabase = new Map<string, ConnectionUse['holders']>()
  for (const holder of holders)
    byDatabase.set(holder.database, [...(byDatabase.get(holder.database) ?? []), holder])
  return [...byDatabase]
    .map(([database, rows]) => {
      const total = rows.reduce((sum, row) => sum + row.count, 0)
      const named = rows.filter((row) => row.application).map((row) => `${row.application} ${row.count}`)
      return `${database || '(none)'} ${total}${named.length > 0 ? ` (${named.join(', ')})` : ''}`
    })
    .join(', ')
}

/**
 * Checks that `plan` is within the budget and that the server has that many connections free,
 * waiting up to `waitMs` for them (another run ending); else a BenchConnectionError saying who holds them.
 */
export async function reserveConnections(
  benchmark: string,
  plan: ConnectionPlan,
  { waitMs = 60_000, pollMs = 2_000 } = {},
): Promise<void> {
  const needed = connectionsOf(plan)
  if (needed > CONNECTION_BUDGET) {
    throw new BenchConnectionError(
      `${benchmark} would hold up to ${needed} PostgreSQL connections (${describeHolds(plan)}), over the budget of ${CONNECTION_BUDGET} (BENCH_MAX_CONNECTIONS, bench/lib/connections.ts). Lower the sizes it counts (BENCH_CONNECTIONS for a SQL replay), or raise BENCH_MAX_CONNECTIONS if the server has room.`,
    )
  }
  if (!plan.databaseUrl || needed === 0) return
  const deadline = Date.now() + waitMs
  for (let waited = false; ; waited = true) {
    const use = await connectionUse(plan.databaseUrl)
    const free = use.max - use.used
    if (free >= needed) return
    if (Date.now() >= deadline) {
      const own = new URL(plan.databaseUrl).pathname.slice(1)
      const leftovers = use.holders
        .filter((holder) => holder.database === own)
        .reduce((s, h) => s + h.count, 0)
      throw new BenchConnectionError(
        `${benchmark} needs up to ${needed} PostgreSQL connections (${describeHolds(plan)}), but ${serverOf(plan.databaseUrl)} has ${use.used} of its ${use.max} in use (${describeHolders(use.holders)}) and ${Math.max(free, 0)} free, after waiting ${Math.round(waitMs / 1000)} s. Another benchmark or test run holds them: wait for it to end, then start again.` +
          (leftovers > 0
            ? ` ${leftovers} are on this benchmark's own database ${own}: a run that was killed may have left them (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${own}').`
            : ''),
      )
    }
    if (!waited) {
      console.warn(
        `${benchmark}: waiting for ${needed} free PostgreSQL connections (${use.used} of ${use.max} in use: ${describeHolders(use.holders)})`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}

/**
 * Waits until no connection of this run (`APPLICATION_NAME`) is open on the server at `url`; after
 * `waitMs`, a BenchConnectionError naming the ones left.
 */
export async function ownConnectionsClosed(benchmark: string, url: string, waitMs = 10_000): Promise<void> {
  const deadline = Date.now() + waitMs
  for (;;) {
    const client = await connected(url)
    let left: { database: string; state: string; count: number }[]
    try {
      left = (
        await client.query<{ database: string; state: string; count: number }>(
          `SELECT coalesce(datname, '') AS database, coalesce(state, '') AS state, count(*)::int AS count
           FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid() GROUP BY 1, 2`,
          [APPLICATION_NAME],
        )
      ).rows
    } finally {
      await client.end()
    }
    if (left.length === 0) return
    if (Date.now() >= deadline) {
      throw new BenchConnectionError(
        `${benchmark} left ${left.reduce((sum, row) => sum + row.count, 0)} PostgreSQL connections open after it ended (${left.map((row) => `${row.database} ${row.state} ${row.count}`).join(', ')}; application_name '${APPLICATION_NAME}'): the next benchmark would start short of them.`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
