import pg from 'pg'
import { signUpAccounts } from '../lib/accounts.ts'
import { bulkLoad, timed } from '../lib/bulk-load.ts'
import { ensureBenchDatabase, seededAlready } from '../lib/database.ts'

/**
 * The admin search benchmark's accounts (default 1M), seeded in SQL with generate_series: md5
 * addresses (hex only, so `qq`, `xx` and `zz` match only where placed), in creation order so that
 * the heap is clustered by creation as a real installation's is. 4,000 accounts spread over the
 * whole history start with `qq`; the 4,000 oldest start with `xx` (a prefix none of the newest
 * holds, the case that once read every match's row).
 */
export const ADMIN_SEARCH_PASSWORD = 'bench password for admin search'
export const ADMIN_SEARCH_ADMIN = 'admin@bench-admin.test'
export const ADMIN_SEARCH_DATABASE_URL =
  process.env.BENCH_ADMIN_SEARCH_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/promptfolio_bench_admin_search'
export const adminSearchSize = { accounts: Number(process.env.BENCH_ADMIN_SEARCH_ACCOUNTS ?? 1_000_000) }
/** Changes when the seed's shape does, so that older seeds are made again. */
const SHAPE = 1
const PLACED = 4000

export async function seedAdminSearch(): Promise<void> {
  const url = ADMIN_SEARCH_DATABASE_URL
  const key = `${adminSearchSize.accounts}:${SHAPE}`
  if (await seededAlready(url, 'admin_search_seed', key)) {
    console.log(`seed admin search: ${key} already there, nothing to do (BENCH_FRESH=1 starts over)`)
    return
  }
  await ensureBenchDatabase(true, url)
  const n = adminSearchSize.accounts
  console.log(`seed admin search: ${n} accounts…`)
  // The installation's first account is its global admin.
  await signUpAccounts(url, [ADMIN_SEARCH_ADMIN], ADMIN_SEARCH_PASSWORD)
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    await db.query(`SET maintenance_work_mem = '512MB'`)
    // Every `spread`-th account gets `qq`, so that PLACED of them are spread over the history.
    const spread = Math.max(1, Math.floor(n / PLACED))
    await bulkLoad(db, 'users', () =>
      db.query(
        `INSERT INTO users (id, name, email, email_verified, created_at, updated_at)
         SELECT 'bench-' || i, 'Account ' || i,
                CASE WHEN i < $2::int THEN 'xx' WHEN i % $3::int = 7 THEN 'qq' ELSE '' END
                  || md5(i::text) || '@bench-admin.test',
                true, now() - ($1::int - i) * interval '1 minute', now() - ($1::int - i) * interval '1 minute'
         FROM generate_series(0, $1::int - 1) i`,
        [n, PLACED, spread],
      ),
    )
    await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE users'))
    await db.query('CREATE TABLE admin_search_seed (key text NOT NULL)')
    await db.query('INSERT INTO admin_search_seed VALUES ($1)', [key])
  } finally {
    await db.end()
  }
}
