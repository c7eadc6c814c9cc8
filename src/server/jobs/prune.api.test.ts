import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../db/rows.ts'
import { mailOutbox, rateLimits, recoverySessions, sessions, verifications } from '../db/schema/index.ts'
import { TestClient } from '../testing/client.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import {
  MAIL_RETENTION_DAYS,
  pruneOnce,
  RATE_LIMIT_RETENTION_HOURS,
  WEBHOOK_DELIVERY_RETENTION_DAYS,
} from './prune.ts'

let testApp: TestApp
let userId: string
beforeAll(async () => {
  testApp = await createTestApp()
  userId = (await new TestClient(testApp).signUp()).id
})
afterAll(() => testApp.close())

const db = () => testApp.database.db
const ago = (ms: number) => new Date(Date.now() - ms)
const HOUR = 3_600_000
const DAY = 24 * HOUR

async function keysOf(table: string, key: string, like: string): Promise<string[]> {
  const rows = await queryRows<{ k: string }>(
    db(),
    sql`SELECT ${sql.identifier(key)}::text AS k FROM ${sql.identifier(table)}
        WHERE ${sql.identifier(key)}::text LIKE ${like} ORDER BY 1`,
  )
  return rows.map((row) => row.k)
}

describe('the pruning job', () => {
  it('drops expired sessions, recovery sessions and one-time values, idle counters and old finished mail, and nothing else', async () => {
    const tag = randomUUID().slice(0, 8)
    await db()
      .insert(sessions)
      .values([
        { id: `${tag}-expired`, userId, token: `${tag}-t1`, expiresAt: ago(1000) },
        { id: `${tag}-live`, userId, token: `${tag}-t2`, expiresAt: ago(-DAY) },
      ])
    await db()
      .insert(recoverySessions)
      .values([
        { tokenHash: `${tag}-expired`, userId, expiresAt: ago(1000) },
        { tokenHash: `${tag}-live`, userId, expiresAt: ago(-HOUR) },
      ])
    await db()
      .insert(verifications)
      .values([
        { id: `${tag}-expired`, identifier: tag, value: 'x', expiresAt: ago(1000) },
        { id: `${tag}-live`, identifier: tag, value: 'x', expiresAt: ago(-HOUR) },
      ])
    await db()
      .insert(rateLimits)
      .values([
        {
          key: `${tag}-idle`,
          count: 3,
          lastRequest: ago(RATE_LIMIT_RETENTION_HOURS * HOUR + 1000).getTime(),
        },
        { key: `${tag}-recent`, count: 3, lastRequest: ago(DAY + HOUR).getTime() },
      ])
    const old = ago((MAIL_RETENTION_DAYS + 1) * DAY)
    const mail = (subject: string, status: 'pending' | 'sent' | 'logged' | 'failed', at: Date) => ({
      kind: 'test',
      toAddress: `${tag}@example.com`,
      subject,
      textBody: 'x',
      status,
      createdAt: at,
      sentAt: status === 'sent' || status === 'logged' ? at : null,
    })
    await db()
      .insert(mailOutbox)
      .values([
        mail(`${tag}-old-sent`, 'sent', old),
        mail(`${tag}-old-logged`, 'logged', old),
        mail(`${tag}-old-failed`, 'failed', old),
        mail(`${tag}-old-pending`, 'pending', old),
        mail(`${tag}-new-sent`, 'sent', ago(DAY)),
      ])

    const pruned = await pruneOnce(db())
    expect(pruned).toMatchObject({
      sessions: 1,
      recovery_sessions: 1,
      verifications: 1,
      rate_limits: 1,
      mail_outbox: 3,
    })
    expect(await keysOf('sessions', 'id', `${tag}%`)).toEqual([`${tag}-live`])
    expect(await keysOf('recovery_sessions', 'token_hash', `${tag}%`)).toEqual([`${tag}-live`])
    expect(await keysOf('verifications', 'id', `${tag}%`)).toEqual([`${tag}-live`])
    expect(await keysOf('rate_limits', 'key', `${tag}%`)).toEqual([`${tag}-recent`])
    expect(await keysOf('mail_outbox', 'subject', `${tag}%`)).toEqual([
      `${tag}-new-sent`,
      `${tag}-old-pending`,
    ])
    // The signed-up user's own session is untouched.
    expect(await keysOf('sessions', 'user_id', userId)).toHaveLength(2)
    // Nothing left: a second run prunes nothing.
    expect(Object.values(await pruneOnce(db())).every((n) => n === 0)).toBe(true)
  })

  it('drops finished webhook deliveries and their attempts after their retention, and keeps pending ones', async () => {
    const tag = randomUUID().slice(0, 8)
    const [endpoint] = await queryRows<{ id: string }>(
      db(),
      sql`INSERT INTO webhook_endpoints (owner_user_id, url, events, secret)
          VALUES (${userId}, 'https://hooks.example.com/in', ARRAY['prompt.created'], 'whsec_test')
          RETURNING id`,
    )
    const old = ago((WEBHOOK_DELIVERY_RETENTION_DAYS + 1) * DAY)
    const delivery = async (name: string, status: string, finishedAt: Date | null, createdAt: Date) => {
      await db().execute(
        sql`INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, payload, status, finished_at, created_at)
            VALUES (${endpoint?.id}, ${`${tag}-${name}`}, 'prompt.created', '{}', ${status}, ${finishedAt}, ${createdAt})`,
      )
    }
    await delivery('old-succeeded', 'succeeded', old, old)
    await delivery('old-failed', 'failed', old, old)
    await delivery('old-pending', 'pending', null, old)
    await delivery('new-succeeded', 'succeeded', ago(DAY), ago(DAY))
    await db().execute(
      sql`INSERT INTO webhook_attempts (delivery_id, attempt, status_code, duration_ms)
          SELECT id, 1, 200, 5 FROM webhook_deliveries WHERE event_id LIKE ${`${tag}%`}`,
    )

    const pruned = await pruneOnce(db())
    expect(pruned.webhook_deliveries).toBe(2)
    expect(await keysOf('webhook_deliveries', 'event_id', `${tag}%`)).toEqual([
      `${tag}-new-succeeded`,
      `${tag}-old-pending`,
    ])
    const attempts = await queryRows<{ n: number | string }>(
      db(),
      sql`SELECT count(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE d.event_id LIKE ${`${tag}%`}`,
    )
    expect(Number(attempts[0]?.n)).toBe(2)
    const orphans = await queryRows<{ n: number | string }>(
      db(),
      sql`SELECT count(*) AS n FROM webhook_attempts a
          WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id)`,
    )
    expect(Number(orphans[0]?.n)).toBe(0)
  })

  it('runs on every process at once: concurrent runs share the rows, each deleted once', async () => {
    const tag = randomUUID().slice(0, 8)
    const n = 2500
    await db().execute(
      sql`INSERT INTO rate_limits (key, count, last_request)
          SELECT ${tag} || '-' || i, 1, ${ago(RATE_LIMIT_RETENTION_HOURS * HOUR + 1000).getTime()}
          FROM generate_series(1, ${n}) AS i`,
    )
    const runs = await Promise.all([pruneOnce(db()), pruneOnce(db()), pruneOnce(db())])
    expect(runs.reduce((sum, run) => sum + (run.rate_limits ?? 0), 0)).toBe(n)
    expect(await keysOf('rate_limits', 'key', `${tag}%`)).toEqual([])
  })
})
