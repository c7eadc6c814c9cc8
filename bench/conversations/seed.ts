import pg from 'pg'
import { signUpAccounts } from '../lib/accounts.ts'
import { ensureBenchDatabase } from '../lib/database.ts'

/** The conversation benchmark's own database: never the app's, the tests' or the prompts benchmark's. */
export const BENCH_CONVERSATIONS_DATABASE_URL =
  process.env.BENCH_CONVERSATIONS_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/promptfolio_bench_conversations'
export const BENCH_USER = {
  email: 'bench-conversations@bench.test',
  password: 'bench password for conversations',
}
export const BIG_CONVERSATION_TITLE = 'The big one'

const CONVERSATIONS = 10_000
const MESSAGES = 1_000_000
const SMALL_CONVERSATION_MESSAGES = 40
/** The rest sit in one conversation, so that it has well over 10,000 pages of 50. */
const BIG_CONVERSATION_MESSAGES = MESSAGES - (CONVERSATIONS - 1) * SMALL_CONVERSATION_MESSAGES

async function timed(label: string, fn: () => Promise<unknown>) {
  const start = performance.now()
  await fn()
  console.log(`seed: ${label} in ${((performance.now() - start) / 1000).toFixed(1)} s`)
}

/**
 * 10,000 conversations of one (ordinary) user with 1,000,000 messages: 600,040 in one
 * conversation, 137 µs apart so that many share a millisecond, and 40 in each of the others.
 * Skips the work when the database already holds them; BENCH_FRESH=1 starts over.
 */
export async function seedConversations(): Promise<void> {
  const url = BENCH_CONVERSATIONS_DATABASE_URL
  await ensureBenchDatabase(process.env.BENCH_FRESH === '1', url)
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    const existing = await db
      .query<{ n: number }>('SELECT count(*)::int AS n FROM conversation_messages')
      .then((result) => result.rows[0]!.n)
      .catch(() => 0)
    if (existing >= MESSAGES) {
      console.log(`seed: ${existing} messages already there, nothing to do (BENCH_FRESH=1 starts over)`)
      return
    }
    if (existing > 0) throw new Error('seed: a partly seeded database; run with BENCH_FRESH=1')
    // The installation's first account becomes global admin; the bench user is an ordinary second.
    const [, userId] = await signUpAccounts(
      url,
      ['bench-conversations-admin@bench.test', BENCH_USER.email],
      BENCH_USER.password,
    )
    await timed(`${CONVERSATIONS} conversations`, () =>
      db.query(
        `INSERT INTO conversations (title, owner_user_id, tags, created_at, updated_at)
         SELECT CASE WHEN i = 1 THEN $2 ELSE 'Conversation ' || i END, $1,
                ARRAY['bench', 'tag' || (i % 50)],
                now() - i * interval '1 minute', now() - i * interval '1 second'
         FROM generate_series(1, $3::int) i`,
        [userId, BIG_CONVERSATION_TITLE, CONVERSATIONS],
      ),
    )
    const big = (await db.query('SELECT id FROM conversations WHERE title = $1', [BIG_CONVERSATION_TITLE]))
      .rows[0].id as string
    await timed(`${BIG_CONVERSATION_MESSAGES} messages in one conversation`, () =>
      db.query(
        `INSERT INTO conversation_messages (conversation_id, created_by_user_id, role, content, created_at, updated_at)
         SELECT $1, $2, CASE WHEN i % 2 = 0 THEN 'assistant' ELSE 'user' END,
                jsonb_build_object('text', 'Message ' || i || ' of the big conversation, as long as a short question or answer.'),
                timestamptz '2026-01-01' + i * interval '137 microseconds',
                timestamptz '2026-01-01' + i * interval '137 microseconds'
         FROM generate_series(1, $3::int) i`,
        [big, userId, BIG_CONVERSATION_MESSAGES],
      ),
    )
    await timed(`${MESSAGES - BIG_CONVERSATION_MESSAGES} messages in the other conversations`, () =>
      db.query(
        `INSERT INTO conversation_messages (conversation_id, created_by_user_id, role, content, created_at, updated_at)
         SELECT c.id, $2, CASE WHEN i % 2 = 0 THEN 'assistant' ELSE 'user' END,
                jsonb_build_object('text', 'Message ' || i || ' of ' || c.title),
                c.created_at + i * interval '1 second', c.created_at + i * interval '1 second'
         FROM conversations c CROSS JOIN generate_series(1, $3::int) i
         WHERE c.id <> $1`,
        [big, userId, SMALL_CONVERSATION_MESSAGES],
      ),
    )
    await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE'))
  } finally {
    await db.end()
  }
}
