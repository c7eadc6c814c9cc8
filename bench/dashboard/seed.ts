import pg from 'pg'
import { lastUtcDays, STREAK_LOOKBACK_DAYS } from '../../src/domain/dashboard.ts'
import { DASHBOARD_DAYS_KEPT } from '../../src/server/jobs/prune.ts'
import { signUpAccounts } from '../lib/accounts.ts'
import { bulkLoad, timed } from '../lib/bulk-load.ts'
import { ensureBenchDatabase, seededAlready } from '../lib/database.ts'

export const BENCH_USER = {
  email: 'bench-dashboard@bench.test',
  password: 'bench password for the dashboard',
}
export const BIG_TEAM_NAME = 'The big team'

/** The sizes measured: prompts in the benchmark user's space, one database each. */
export const DASHBOARD_SIZES = (process.env.BENCH_DASHBOARD_SIZES ?? '10000,100000')
  .split(',')
  .map((size) => Number(size.trim()))
  .filter((size) => Number.isInteger(size) && size > 0)
if (DASHBOARD_SIZES.length === 0) throw new Error('BENCH_DASHBOARD_SIZES: no size (e.g. 10000,100000)')

/**
 * Each size's own database (never the app's, the tests' or another benchmark's):
 * `BENCH_DASHBOARD_DATABASE_URL` (default `.../promptfolio_bench_dashboard`) with `_<size>` added
 * to its name.
 */
export function dashboardDatabaseUrl(size: number): string {
  const url = new URL(
    process.env.BENCH_DASHBOARD_DATABASE_URL ??
      'postgres://postgres@127.0.0.1:5432/promptfolio_bench_dashboard',
  )
  url.pathname = `${url.pathname}_${size}`
  return url.toString()
}

/** A compact label of a size: 10k, 100k, 1M. */
export function sizeLabel(size: number): string {
  if (size >= 1_000_000 && size % 1_000_000 === 0) return `${size / 1_000_000}M`
  if (size >= 1_000 && size % 1_000 === 0) return `${size / 1_000}k`
  return String(size)
}

const CONVERSATIONS = 1_000
const TEAMS = 50
/** Days of history: every day has activity, so the streak query sees its longest input. */
const HISTORY_DAYS = 400
/** Changes when the seed's shape does, so that older seeds are made again. */
const SHAPE = 3
const seededUuid = (text: string) =>
  `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`

/**
 * One (ordinary) user with `prompts` prompts (1 to 3 versions each, about twice as many versions),
 * 1,000 conversations with a message each and 3 prompt attachments per message, in 50 teams, at
 * every size. Half of the prompts are shared: a quarter of all with the big team, a quarter spread
 * over the other 49. Creation times spread over 400 days, every day active. Set-based SQL
 * (generate_series); prompts and versions bulk-loaded without triggers, writing what they keep.
 * Skipped when the database holds this seed already; BENCH_FRESH=1 starts over.
 */
export async function seedDashboard(prompts: number): Promise<void> {
  const url = dashboardDatabaseUrl(prompts)
  const key = `${prompts}:${SHAPE}`
  const label = sizeLabel(prompts)
  if (await seededAlready(url, 'dashboard_seed', key)) {
    console.log(`seed dashboard ${label}: already there, nothing to do (BENCH_FRESH=1 starts over)`)
    return
  }
  await ensureBenchDatabase(true, url)
  console.log(`seed dashboard ${label}: ${prompts} prompts…`)
  const [, userId] = await signUpAccounts(
    url,
    ['bench-dashboard-admin@bench.test', BENCH_USER.email],
    BENCH_USER.password,
  )
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  const now = new Date()
  try {
    await timed(`${TEAMS} teams`, async () => {
      await db.query(
        `INSERT INTO teams (name, created_by_user_id)
         SELECT CASE WHEN i = 1 THEN $2 ELSE 'Team ' || i END, $1 FROM generate_series(1, $3::int) i`,
        [userId, BIG_TEAM_NAME, TEAMS],
      )
      await db.query(`INSERT INTO team_members (team_id, user_id, role) SELECT id, $1, 'member' FROM teams`, [
        userId,
      ])
    })
    // Bulk loading: no triggers, each table's indexes built once at the end. The prompt's copy of
    // its current body, its version count and whether its current version is behind (the last
    // version is current: never) are written as the triggers of migrations 0255 and 0264 would, and
    // the dashboard's kept totals (0257) and days (0268) recounted afterwards.
    await db.query(`SET maintenance_work_mem = '256MB'`)
    await db.query('SET session_replication_role = replica')
    // Prompt i has 1 to 3 versions (the hash of its title), an hour apart from its creation.
    const versionsOf = `1 + abs(hashtext('Prompt ' || i)) % 3`
    const createdAt = `$2::timestamptz - (i % $3) * interval '1 day' - (i / $3) * interval '1 second'`
    await bulkLoad(db, 'prompt_versions', () =>
      db.query(
        `INSERT INTO prompt_versions (id, prompt_id, version_number, body, created_by_user_id, created_at)
         SELECT ${seededUuid("'version' || i || '-' || k")}, ${seededUuid("'prompt' || i")}, k,
                'Body ' || k || ' of Prompt ' || i, $1, ${createdAt} + (k - 1) * interval '1 hour'
         FROM generate_series(1, $4::int) i CROSS JOIN LATERAL generate_series(1, ${versionsOf}) k`,
        [userId, now, HISTORY_DAYS, prompts],
      ),
    )
    await bulkLoad(db, 'prompts', () =>
      db.query(
        `WITH numbered AS (SELECT id, row_number() OVER (ORDER BY name = $5 DESC, name) AS n FROM teams)
         INSERT INTO prompts (id, owner_user_id, team_id, title, name, tags, visibility, created_at, updated_at,
                              current_version_id, current_body, current_body_search, version_count, current_behind)
         SELECT ${seededUuid("'prompt' || i")}, $1, t.id, 'Prompt ' || i, 'prompt-' || i,
                ARRAY['bench', 'tag' || (i % 40)], CASE WHEN i % 2 = 0 THEN 'team' ELSE 'private' END,
                ${createdAt}, $2::timestamptz - (i % $3) * interval '1 day',
                v.id, v.body, v.body_search, v.version_number, false
         FROM generate_series(1, $4::int) i
         JOIN prompt_versions v ON v.id = ${seededUuid(`'version' || i || '-' || (${versionsOf})`)}
         LEFT JOIN numbered t ON t.n = CASE WHEN i % 4 = 0 THEN 1 WHEN i % 4 = 2 THEN 2 + i % 49 END`,
        [userId, now, HISTORY_DAYS, prompts, BIG_TEAM_NAME],
      ),
    )
    await db.query('SELECT dashboard_counts_recount()')
    await db.query('SELECT dashboard_days_recount()')
    await db.query('SET session_replication_role = DEFAULT')
    await timed(`${CONVERSATIONS} conversations with a message and 3 attachments each`, async () => {
      await db.query(
        `INSERT INTO conversations (title, owner_user_id, team_id, created_at, updated_at)
         SELECT 'Conversation ' || i, $1,
                CASE WHEN i % 4 = 0 THEN (SELECT id FROM teams WHERE name = $2) END,
                now() - (i % $3) * interval '1 day', now() - (i % $3) * interval '1 day'
         FROM generate_series(1, $4::int) i`,
        [userId, BIG_TEAM_NAME, HISTORY_DAYS, CONVERSATIONS],
      )
      await db.query(
        `INSERT INTO conversation_messages (conversation_id, created_by_user_id, role, content, created_at, updated_at)
         SELECT id, $1, 'user', jsonb_build_object('text', 'Hello from ' || title), created_at, created_at
         FROM conversations`,
        [userId],
      )
      await db.query(
        `INSERT INTO conversation_message_prompts (message_id, prompt_id, attached_by_user_id)
         SELECT m.id, p.id, $1
         FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM conversation_messages) m
         CROSS JOIN generate_series(0, 2) k
         JOIN (SELECT id, row_number() OVER (ORDER BY created_at DESC, id) AS n FROM prompts) p
           ON p.n = 1 + (m.n * 7 + k * 13) % 600`,
        [userId],
      )
    })
    // The per-day counts as the hourly pruning leaves them: older days one row per person and day.
    await db.query('SELECT dashboard_days_fold($1::date, $2::date)', [
      lastUtcDays(DASHBOARD_DAYS_KEPT)[0],
      lastUtcDays(STREAK_LOOKBACK_DAYS)[0],
    ])
    await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE'))
    await db.query('CREATE TABLE dashboard_seed (key text NOT NULL)')
    await db.query('INSERT INTO dashboard_seed VALUES ($1)', [key])
  } finally {
    await db.end()
  }
}
