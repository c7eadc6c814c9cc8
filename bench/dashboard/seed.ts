import pg from 'pg'
import { signUpAccounts } from '../lib/accounts.ts'
import { ensureBenchDatabase } from '../lib/database.ts'

/** The dashboard benchmark's own database: never the app's, the tests' or another benchmark's. */
export const BENCH_DASHBOARD_DATABASE_URL =
  process.env.BENCH_DASHBOARD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_dashboard'
export const BENCH_USER = {
  email: 'bench-dashboard@bench.test',
  password: 'bench password for the dashboard',
}
export const BIG_TEAM_NAME = 'The big team'

const PROMPTS = 10_000
const CONVERSATIONS = 1_000
const TEAMS = 50
/** Days of history: every day has activity, so the streak query sees its longest input. */
const HISTORY_DAYS = 400

async function timed(label: string, fn: () => Promise<unknown>) {
  const start = performance.now()
  await fn()
  console.log(`seed: ${label} in ${((performance.now() - start) / 1000).toFixed(1)} s`)
}

/**
 * One (ordinary) user with 10,000 prompts (1 to 3 versions each, ~20,000 versions), 1,000
 * conversations with a message each and 3 prompt attachments per message, in 50 teams. Half of the
 * prompts are shared: a quarter of all with the big team, a quarter spread over the other 49.
 * Creation times spread over 400 days, every day active. BENCH_FRESH=1 starts over.
 */
export async function seedDashboard(): Promise<void> {
  const url = BENCH_DASHBOARD_DATABASE_URL
  await ensureBenchDatabase(process.env.BENCH_FRESH === '1', url)
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    const existing = await db
      .query<{ n: number }>('SELECT count(*)::int AS n FROM prompts')
      .then((result) => result.rows[0]!.n)
      .catch(() => 0)
    if (existing >= PROMPTS) {
      console.log(`seed: ${existing} prompts already there, nothing to do (BENCH_FRESH=1 starts over)`)
      return
    }
    if (existing > 0) throw new Error('seed: a partly seeded database; run with BENCH_FRESH=1')
    const [, userId] = await signUpAccounts(
      url,
      ['bench-dashboard-admin@bench.test', BENCH_USER.email],
      BENCH_USER.password,
    )
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
    await timed(`${PROMPTS} prompts`, () =>
      db.query(
        `WITH numbered AS (SELECT id, name, row_number() OVER (ORDER BY name = $2 DESC, name) AS n FROM teams)
         INSERT INTO prompts (owner_user_id, team_id, title, name, tags, visibility, created_at, updated_at)
         SELECT $1,
                CASE WHEN i % 4 = 0 THEN (SELECT id FROM numbered WHERE n = 1)
                     WHEN i % 4 = 2 THEN (SELECT id FROM numbered WHERE n = 2 + i % 49) END,
                'Prompt ' || i, 'prompt-' || i, ARRAY['bench', 'tag' || (i % 40)],
                CASE WHEN i % 2 = 0 THEN 'team' ELSE 'private' END,
                now() - (i % $3) * interval '1 day' - i * interval '1 second',
                now() - (i % $3) * interval '1 day'
         FROM generate_series(1, $4::int) i`,
        [userId, BIG_TEAM_NAME, HISTORY_DAYS, PROMPTS],
      ),
    )
    await timed('versions', async () => {
      await db.query(
        `INSERT INTO prompt_versions (prompt_id, version_number, body, created_by_user_id, created_at)
         SELECT p.id, v, 'Body ' || v || ' of ' || p.title, $1, p.created_at + (v - 1) * interval '1 hour'
         FROM prompts p CROSS JOIN LATERAL generate_series(1, 1 + abs(hashtext(p.title)) % 3) v`,
        [userId],
      )
      await db.query(
        `UPDATE prompts p SET current_version_id = (
           SELECT id FROM prompt_versions v WHERE v.prompt_id = p.id ORDER BY version_number DESC LIMIT 1)`,
      )
    })
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
    await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE'))
  } finally {
    await db.end()
  }
}
