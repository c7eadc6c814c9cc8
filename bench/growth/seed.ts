import pg from 'pg'
import { auditActions, auditObjectTypes } from '../../src/domain/audit.ts'
import { signUpAccounts } from '../lib/accounts.ts'
import { bulkLoad, timed } from '../lib/bulk-load.ts'
import { ensureBenchDatabase } from '../lib/database.ts'
import * as data from '../prompts/data.ts'

/**
 * The growth benchmark's data: the same shape at two sizes, each in a database of its own. At size
 * N there are N users, N prompts (one version each, 30% shared with a team), N conversations, N
 * messages and N audit entries. 100 of the users write: each owns 1% of the prompts and
 * conversations, and each of the first 100 conversations holds 1% of the messages, so the
 * benchmark user's share of every list grows with N as the tables do.
 */
export const GROWTH_PASSWORD = 'bench password for growth'
export const GROWTH_ADMIN = 'growth-admin@bench.test'
export const GROWTH_USER = 'growth-user@bench.test'
/** The users that own prompts, conversations and messages; the benchmark user is the first. */
const WRITERS = 100
const TEAMS = 10
/** Changes when the seed's shape does, so that older seeds are made again. */
const SHAPE = 3

/**
 * A row's id made of its name: md5 with a version 4 nibble and the RFC variant (the API accepts
 * only such uuids). `seededId` in run.ts computes the same in JavaScript.
 */
const seededUuid = (text: string) =>
  `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`

export interface GrowthSize {
  label: string
  rows: number
  url: string
}

const urlOf = (name: string) =>
  process.env[`BENCH_GROWTH_${name.toUpperCase()}_DATABASE_URL`] ??
  `postgres://postgres@127.0.0.1:5432/promptfolio_bench_growth_${name}`

export const growthSizes: GrowthSize[] = [
  { label: '10k', rows: Number(process.env.BENCH_GROWTH_SMALL ?? 10_000), url: urlOf('10k') },
  { label: '1M', rows: Number(process.env.BENCH_GROWTH_LARGE ?? 1_000_000), url: urlOf('1m') },
]

/** Seeds one size; skips the work when the database holds a finished seed of that size. */
export async function seedGrowth(size: GrowthSize): Promise<void> {
  await ensureBenchDatabase(false, size.url)
  let db = new pg.Client({ connectionString: size.url })
  await db.connect()
  const done = await db
    .query<{ rows: number }>('SELECT rows FROM growth_seed WHERE shape = $1', [SHAPE])
    .then((result) => result.rows[0]?.rows)
    .catch(() => undefined)
  if (done === size.rows && process.env.BENCH_FRESH !== '1') {
    console.log(
      `seed ${size.label}: ${done} rows a list already there, nothing to do (BENCH_FRESH=1 starts over)`,
    )
    await db.end()
    return
  }
  await db.end()
  // A partial or different seed: start over.
  await ensureBenchDatabase(true, size.url)
  const n = size.rows
  console.log(`seed ${size.label}: ${n} users, prompts, conversations, messages and audit entries…`)
  const [, userId] = await signUpAccounts(size.url, [GROWTH_ADMIN, GROWTH_USER], GROWTH_PASSWORD)
  db = new pg.Client({ connectionString: size.url })
  await db.connect()
  try {
    // writer(k): the benchmark user for k = 0, else the seeded user k.
    const writer = (k: string) => `CASE WHEN ${k} = 0 THEN $1 ELSE 'growth-' || (${k}) END`
    await db.query(`SET maintenance_work_mem = '256MB'`)
    // With triggers: they keep the user list's totals (migration 0205); users has no foreign keys.
    await bulkLoad(db, 'users', () =>
      db.query(
        `INSERT INTO users (id, name, email, email_verified, created_at, updated_at)
         SELECT 'growth-' || i, 'User ' || i, 'growth-' || i || '@bench.test', true,
                now() - interval '1 day' - i * interval '10 seconds', now() - i * interval '10 seconds'
         FROM generate_series(1, $1::int) i`,
        [n - 2],
      ),
    )
    // From here on bulk loading: no triggers (a prompt's copy of its current body and its version
    // count are written here as the triggers of migrations 0255 and 0264 would), each table's
    // indexes built once at the end.
    await db.query('SET session_replication_role = replica')
    // Teams of the writers: writer k is in team k % 10; the benchmark user also in team 1, as admin of 0.
    await db.query(
      `INSERT INTO teams (id, name, created_by_user_id)
       SELECT ${seededUuid("'team' || t")}, 'Growth team ' || t, ${writer('t')} FROM generate_series(0, $2::int - 1) t`,
      [userId, TEAMS],
    )
    await db.query(
      `INSERT INTO team_members (team_id, user_id, role)
       SELECT ${seededUuid("'team' || (k % $2)")}, ${writer('k')}, CASE WHEN k < $2 THEN 'admin' ELSE 'member' END
       FROM generate_series(0, $3::int - 1) k
       UNION ALL SELECT ${seededUuid("'team1'")}, $1, 'member'`,
      [userId, TEAMS, WRITERS],
    )
    // Prompt i: writer i % 100, a title from the prompts benchmark's words, 1–3 tags with a skew.
    const promptArgs = [userId, n, data.verbs, data.objects, data.tagPool, data.sentences, WRITERS, TEAMS]
    const promptRows = `FROM generate_series(0, $2::int - 1) i`
    await bulkLoad(db, 'prompt_versions', () =>
      db.query(
        `INSERT INTO prompt_versions (id, prompt_id, version_number, body, changelog, created_by_user_id, created_at)
         SELECT ${seededUuid("'version' || i")}, ${seededUuid("'prompt' || i")}, 1,
                ($3::text[])[1 + i % 14] || ' ' || ($3::text[])[1 + (i / 14) % 14] || ' ' || ($3::text[])[1 + (i / 196) % 14],
                'Initial version', ${writer('i % $4')}, now() - i * interval '20 seconds'
         ${promptRows}`,
        [userId, n, data.sentences, WRITERS],
      ),
    )
    await bulkLoad(db, 'prompts', () =>
      db.query(
        `INSERT INTO prompts (id, owner_user_id, team_id, title, name, description, tags, visibility,
                              current_version_id, created_at, updated_at, current_body, current_body_search,
                              version_count)
         SELECT ${seededUuid("'prompt' || i")}, ${writer('i % $7')},
                CASE WHEN i % 10 < 3 THEN ${seededUuid("'team' || (i % $7 % $8)")} END,
                ($3::text[])[1 + i % 26] || ' ' || ($4::text[])[1 + (i / 26) % 33], 'prompt-' || i,
                CASE WHEN i % 5 < 3 THEN ($6::text[])[1 + (i / 7) % 14] END,
                ARRAY[($5::text[])[1 + (i / 100) % 5]] || CASE WHEN i % 3 = 0 THEN ARRAY[($5::text[])[6 + (i / 3) % 45]] ELSE '{}' END,
                CASE WHEN i % 10 < 3 THEN 'team' ELSE 'private' END,
                ${seededUuid("'version' || i")}, now() - i * interval '20 seconds', now() - i * interval '10 seconds',
                v.body, v.body_search, 1
         ${promptRows} JOIN prompt_versions v ON v.id = ${seededUuid("'version' || i")}`,
        promptArgs,
      ),
    )
    await bulkLoad(db, 'conversations', () =>
      db.query(
        `INSERT INTO conversations (id, title, owner_user_id, tags, created_at, updated_at)
         SELECT ${seededUuid("'conversation' || i")}, 'Conversation ' || i, ${writer('i % $3')},
                ARRAY['bench', 'tag' || (i % 50)], now() - i * interval '20 seconds', now() - i * interval '10 seconds'
         FROM generate_series(0, $2::int - 1) i`,
        [userId, n, WRITERS],
      ),
    )
    // Message i: in conversation i % 100 (owned by writer i % 100), 1 ms apart in its conversation.
    await bulkLoad(db, 'conversation_messages', () =>
      db.query(
        `INSERT INTO conversation_messages (conversation_id, created_by_user_id, role, content, created_at, updated_at)
         SELECT ${seededUuid("'conversation' || (i % $3)")}, ${writer('i % $3')},
                CASE WHEN (i / $3) % 2 = 0 THEN 'user' ELSE 'assistant' END,
                jsonb_build_object('text', 'Message ' || i || ', as long as a short question or answer.'),
                timestamptz '2026-01-01' + (i / $3) * interval '1 millisecond',
                timestamptz '2026-01-01' + (i / $3) * interval '1 millisecond'
         FROM generate_series(0, $2::int - 1) i`,
        [userId, n, WRITERS],
      ),
    )
    // Audit entry i: by writer i % 100, in that writer's team, 10 s apart.
    await bulkLoad(db, 'audit_log', () =>
      db.query(
        `INSERT INTO audit_log (created_at, actor_kind, actor_user_id, actor_email, action, object_type,
                                object_id, team_id, after, client_address)
         SELECT now() - i * interval '10 seconds', 'user', ${writer('i % $3')}, 'growth-' || (i % $3) || '@bench.test',
                ($5::text[])[1 + i % cardinality($5::text[])], ($6::text[])[1 + i % cardinality($6::text[])],
                md5('object' || i), ${seededUuid("'team' || (i % $3 % $4)")}, jsonb_build_object('n', i), '127.0.0.1'
         FROM generate_series(0, $2::int - 1) i`,
        [userId, n, WRITERS, TEAMS, auditActions, auditObjectTypes],
      ),
    )
    // The dashboard's kept totals and days, which the triggers did not keep while loading
    // (migrations 0257, 0268).
    await db.query('SELECT dashboard_counts_recount()')
    await db.query('SELECT dashboard_days_recount()')
    await db.query('SET session_replication_role = DEFAULT')
    await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE'))
    await db.query('CREATE TABLE growth_seed (rows int NOT NULL, shape int NOT NULL)')
    await db.query('INSERT INTO growth_seed VALUES ($1, $2)', [n, SHAPE])
  } finally {
    await db.end()
  }
}
