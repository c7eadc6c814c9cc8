import pg from 'pg'
import { signUpAccounts } from '../lib/accounts.ts'
import { bulkLoad, timed } from '../lib/bulk-load.ts'
import { ensureBenchDatabase, seededAlready } from '../lib/database.ts'
import * as data from '../prompts/data.ts'

/**
 * The search benchmark's data: one user whose personal space holds `prompts × versions` versions
 * (default 200,000 × 5 = 1M), seeded in SQL with generate_series (minutes, where the API would take
 * hours). A body is three of the prompts benchmark's sentences, its title's words and a numbered
 * word (`ref<n>`, n < 50,000) that 20 versions share: a rare word. "the" is in nearly every body
 * (a common word), "summar" in about a third (a part of a word).
 */
export const SEARCH_PASSWORD = 'bench password for search'
export const SEARCH_ADMIN = 'search-admin@bench.test'
export const SEARCH_USER = 'search-user@bench.test'
export const SEARCH_DATABASE_URL =
  process.env.BENCH_SEARCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_search'
export const searchSize = {
  prompts: Number(process.env.BENCH_SEARCH_PROMPTS ?? 200_000),
  versions: Number(process.env.BENCH_SEARCH_VERSIONS_PER_PROMPT ?? 5),
}
/** Changes when the seed's shape does, so that older seeds are made again. */
const SHAPE = 1
const seededUuid = (text: string) =>
  `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`

export async function seedSearch(): Promise<void> {
  const url = SEARCH_DATABASE_URL
  const key = `${searchSize.prompts}x${searchSize.versions}:${SHAPE}`
  if (await seededAlready(url, 'search_seed', key)) {
    console.log(`seed search: ${key} already there, nothing to do (BENCH_FRESH=1 starts over)`)
    return
  }
  await ensureBenchDatabase(true, url)
  const { prompts: n, versions: perPrompt } = searchSize
  console.log(`seed search: ${n} prompts × ${perPrompt} versions in one space…`)
  const [, userId] = await signUpAccounts(url, [SEARCH_ADMIN, SEARCH_USER], SEARCH_PASSWORD)
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    await db.query(`SET maintenance_work_mem = '512MB'`)
    // Bulk loading: no triggers; the prompt's copy of its current body and its version count are
    // written as the triggers of migrations 0255 and 0264 would.
    await db.query('SET session_replication_role = replica')
    // Version k of prompt i; the last is the current one.
    await bulkLoad(db, 'prompt_versions', () =>
      db.query(
        `INSERT INTO prompt_versions (id, prompt_id, version_number, body, changelog, created_by_user_id, created_at)
         SELECT ${seededUuid("'version' || i || '-' || k")}, ${seededUuid("'prompt' || i")}, k,
                ($3::text[])[1 + (i + k) % 14] || ' ' || ($3::text[])[1 + (i / 14 + 2 * k) % 14] || ' '
                  || ($3::text[])[1 + (i / 196 + 5 * k) % 14] || ' ' || ($4::text[])[1 + i % 26] || ' the '
                  || ($5::text[])[1 + (i / 26) % 33] || ' ref' || ((i * $6 + k) % 50000),
                'Version ' || k, $1, now() - (i * $6 - k) * interval '20 seconds'
         FROM generate_series(0, $2::int - 1) i CROSS JOIN generate_series(1, $6::int) k`,
        [userId, n, data.sentences, data.verbs, data.objects, perPrompt],
      ),
    )
    await bulkLoad(db, 'prompts', () =>
      db.query(
        `INSERT INTO prompts (id, owner_user_id, title, name, description, tags, visibility, current_version_id,
                              current_body, current_body_search, created_at, updated_at, version_count)
         SELECT ${seededUuid("'prompt' || i")}, $1, ($3::text[])[1 + i % 26] || ' ' || ($4::text[])[1 + (i / 26) % 33],
                'prompt-' || i, CASE WHEN i % 5 < 2 THEN 'Helps with the ' || ($4::text[])[1 + i % 33] END,
                ARRAY['bench'], 'private', v.id, v.body, v.body_search,
                now() - i * $5::int * interval '20 seconds', now() - i * interval '10 seconds', $5::int
         FROM generate_series(0, $2::int - 1) i
         JOIN prompt_versions v ON v.id = ${seededUuid("'version' || i || '-' || $5::int")}`,
        [userId, n, data.verbs, data.objects, perPrompt],
      ),
    )
    // The dashboard's kept totals and days, which the triggers did not keep while loading
    // (migrations 0257, 0268).
    await db.query('SELECT dashboard_counts_recount()')
    await db.query('SELECT dashboard_days_recount()')
    await db.query('SET session_replication_role = DEFAULT')
    await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE prompts, prompt_versions'))
    await db.query('CREATE TABLE search_seed (key text NOT NULL)')
    await db.query('INSERT INTO search_seed VALUES ($1)', [key])
  } finally {
    await db.end()
  }
}
