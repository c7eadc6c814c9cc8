/**
 * Seeds the conversation benchmark's own database: 10,000 conversations with 1,000,000 messages,
 * most of them (600,040) in one conversation so that it has over 10,000 pages. Recreates the
 * database each time. Run: node --import tsx bench/conversations-seed.ts
 */
import {
  ADMIN_URL,
  BENCH_DB,
  BENCH_URL,
  BIG_CONVERSATION_TITLE,
  CONVERSATIONS,
  MESSAGES,
  sessionCookie,
  startServer,
  withClient,
} from './conversations-support.ts'

const SMALL_MESSAGES = 40
const bigMessages = MESSAGES - (CONVERSATIONS - 1) * SMALL_MESSAGES

async function timed(label: string, fn: () => Promise<unknown>) {
  const start = performance.now()
  await fn()
  console.log(`${label}: ${((performance.now() - start) / 1000).toFixed(1)} s`)
}

await withClient(ADMIN_URL, async (admin) => {
  await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${BENCH_DB}`)
})

// The server applies the migrations; the first account becomes global admin, so the bench user
// (an ordinary user) is the second.
const server = await startServer()
let userId: string
try {
  const first = await fetch(`${server.url}/api/v1/auth/sign-up`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify({
      email: 'bench-admin@bench.test',
      password: 'bench admin password',
      confirmPassword: 'bench admin password',
      acceptTerms: true,
    }),
  })
  if (!first.ok) throw new Error(`sign-up failed: ${first.status}`)
  userId = (await sessionCookie(server.url, true)).userId
} finally {
  await server.stop()
}

await withClient(BENCH_URL, async (db) => {
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
  const big = (await db.query(`SELECT id FROM conversations WHERE title = $1`, [BIG_CONVERSATION_TITLE]))
    .rows[0].id as string
  // 137 µs apart: many messages share a millisecond, as the cursor's microseconds must handle.
  await timed(`${bigMessages} messages in one conversation`, () =>
    db.query(
      `INSERT INTO conversation_messages (conversation_id, created_by_user_id, role, content, created_at, updated_at)
       SELECT $1, $2, CASE WHEN i % 2 = 0 THEN 'assistant' ELSE 'user' END,
              jsonb_build_object('text', 'Message ' || i || ' of the big conversation, long enough to look like a real question or answer.'),
              timestamptz '2026-01-01' + i * interval '137 microseconds',
              timestamptz '2026-01-01' + i * interval '137 microseconds'
       FROM generate_series(1, $3::int) i`,
      [big, userId, bigMessages],
    ),
  )
  await timed(`${(CONVERSATIONS - 1) * SMALL_MESSAGES} messages in the other conversations`, () =>
    db.query(
      `INSERT INTO conversation_messages (conversation_id, created_by_user_id, role, content, created_at, updated_at)
       SELECT c.id, $2, CASE WHEN i % 2 = 0 THEN 'assistant' ELSE 'user' END,
              jsonb_build_object('text', 'Message ' || i || ' of ' || c.title),
              c.created_at + i * interval '1 second', c.created_at + i * interval '1 second'
       FROM conversations c CROSS JOIN generate_series(1, $3::int) i
       WHERE c.id <> $1`,
      [big, userId, SMALL_MESSAGES],
    ),
  )
  await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE'))
  const { rows } = await db.query(
    'SELECT (SELECT count(*) FROM conversations) AS conversations, (SELECT count(*) FROM conversation_messages) AS messages',
  )
  console.log(`seeded ${BENCH_DB}: ${rows[0].conversations} conversations, ${rows[0].messages} messages`)
})
