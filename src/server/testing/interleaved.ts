import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { queryRows } from '../db/rows.ts'

/**
 * Runs `first` in a transaction on one connection and, while it is open, `second` on another;
 * lets the first commit once the second has finished or waits for a lock (seen in
 * pg_stat_activity by the marker in its text, as no clock can tell). PostgreSQL only: PGlite has
 * one connection, so no two transactions are ever open at once there.
 */
export async function interleaved(db: Db, first: SQL, second: SQL): Promise<void> {
  const marker = `interleaved ${crypto.randomUUID()}`
  let release!: () => void
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let ran!: () => void
  const firstRan = new Promise<void>((resolve) => {
    ran = resolve
  })
  const transaction = db.transaction(async (tx) => {
    await tx.execute(first)
    ran()
    await released
  })
  // A failing first statement ends the transaction (and the test) here.
  await Promise.race([firstRan, transaction])
  let finished = false
  const other = db.execute(sql`${sql.raw(`/* ${marker} */`)} ${second}`).finally(() => {
    finished = true
  })
  const waiting = async () =>
    (
      await queryRows<{ waiting: boolean }>(
        db,
        sql`SELECT EXISTS (SELECT 1 FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND position(${marker} IN query) > 0) AS waiting`,
      )
    )[0]!.waiting
  while (!finished && !(await waiting())) await new Promise((resolve) => setTimeout(resolve, 10))
  release()
  await Promise.all([transaction, other])
}
