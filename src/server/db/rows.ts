import type { SQL } from 'drizzle-orm'
import type { Db, Tx } from './client.ts'

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function queryRows<T extends Record<string, unknown>>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows
}

/** A timestamp column of a raw-SQL row: a Date, or text where the driver leaves it as text. */
export type SqlTimestamp = Date | string

/** A raw row's timestamp as the API gives it: ISO 8601 in UTC. */
export function isoTimestamp(value: SqlTimestamp): string {
  return new Date(value).toISOString()
}
