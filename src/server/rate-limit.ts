import { sql } from 'drizzle-orm'
import type { Db, Tx } from './db/client.ts'
import { queryRows } from './db/rows.ts'

export interface RateLimitRule {
  /** Window length in seconds. */
  window: number
  max: number
}

export interface RateLimitResult {
  allowed: boolean
  /** Seconds until the window resets; null when allowed. */
  retryAfter: number | null
}

/**
 * Counts one request against `key` in a fixed window, atomically in the database so that every app
 * process shares the same counters. One statement: no read-then-write race.
 */
export async function consumeRateLimit(
  db: Db | Tx,
  key: string,
  rule: RateLimitRule,
): Promise<RateLimitResult> {
  const now = Date.now()
  const windowMs = rule.window * 1000
  const [row] = await queryRows<{ count: number | string; last_request: number | string }>(
    db,
    sql`
    INSERT INTO rate_limits (key, count, last_request) VALUES (${key}, 1, ${now})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.last_request <= ${now - windowMs} THEN 1 ELSE rate_limits.count + 1 END,
      last_request = CASE WHEN rate_limits.last_request <= ${now - windowMs} THEN ${now} ELSE rate_limits.last_request END
    RETURNING count, last_request`,
  )
  if (!row) throw new Error('rate limit upsert returned no row')
  if (Number(row.count) <= rule.max) return { allowed: true, retryAfter: null }
  return {
    allowed: false,
    retryAfter: Math.max(1, Math.ceil((Number(row.last_request) + windowMs - now) / 1000)),
  }
}

export interface FailureCount {
  count: number
  /** When the latest failure was counted (ms since the epoch). */
  last: number
}

/**
 * Failure counters share the table with the limits above, with another meaning: `count` failures
 * without a pause of `window` seconds, `last_request` the latest of them. Reading does not count.
 */
export async function readFailures(db: Db, key: string, window: number): Promise<FailureCount> {
  const [row] = await queryRows<{ count: number | string; last_request: number | string }>(
    db,
    sql`SELECT count, last_request FROM rate_limits WHERE key = ${key}`,
  )
  const last = Number(row?.last_request ?? 0)
  return !row || last <= Date.now() - window * 1000
    ? { count: 0, last: 0 }
    : { count: Number(row.count), last }
}

export async function countFailure(db: Db, key: string, window: number): Promise<void> {
  const now = Date.now()
  await db.execute(sql`
    INSERT INTO rate_limits (key, count, last_request) VALUES (${key}, 1, ${now})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.last_request <= ${now - window * 1000} THEN 1 ELSE rate_limits.count + 1 END,
      last_request = ${now}`)
}

export async function forgetFailures(db: Db, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`)
}
