import pg from 'pg'

/** The benchmark's own database: never the app's or the tests'. */
export const BENCH_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench'

/** Creates (or with `fresh`, drops and re-creates) a benchmark database. */
/** The database a URL names (`postgres://host/name` → `name`). */
export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1))
}

export async function ensureBenchDatabase(fresh: boolean, url = BENCH_DATABASE_URL): Promise<void> {
  const name = databaseName(url)
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected benchmark database name: ${name}`)
  const maintenance = new URL(url)
  maintenance.pathname = '/postgres'
  const admin = new pg.Client({ connectionString: maintenance.toString() })
  await admin.connect()
  try {
    if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (!rowCount) await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
}

/** The seed and the runner sign the same session cookies. */
export const BENCH_AUTH_SECRET = 'promptfolio-benchmark-secret-not-for-production'

/**
 * Whether `url` holds the seed `key` already (written to `table` when a seed finishes), so that a
 * run can skip minutes of seeding; `BENCH_FRESH=1` answers no. Creates the database when missing.
 */
export async function seededAlready(url: string, table: string, key: string): Promise<boolean> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`unexpected seed table name: ${table}`)
  await ensureBenchDatabase(false, url)
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  const done = await db
    .query<{ key: string }>(`SELECT key FROM ${table}`)
    .then((result) => result.rows[0]?.key)
    .catch(() => undefined)
  await db.end()
  return done === key && process.env.BENCH_FRESH !== '1'
}
