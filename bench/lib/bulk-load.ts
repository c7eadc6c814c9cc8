import type pg from 'pg'

/** Runs `fn` and prints how long it took under `label`. */
export async function timed(label: string, fn: () => Promise<unknown>): Promise<void> {
  const start = performance.now()
  await fn()
  console.log(`seed: ${label} in ${((performance.now() - start) / 1000).toFixed(1)} s`)
}

/**
 * Loads a table with its secondary indexes dropped and built again afterwards (a bulk build is
 * many times faster than a million single inserts into GIN indexes); constraints stay.
 */
export async function bulkLoad(db: pg.Client, table: string, load: () => Promise<unknown>): Promise<void> {
  const { rows } = await db.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid
     WHERE i.indrelid = $1::regclass AND c.oid IS NULL`,
    [table],
  )
  for (const index of rows) await db.query(`DROP INDEX ${index.name}`)
  // Built again also when the load fails: a later run must not find the table without them.
  try {
    await timed(`${table}: rows`, load)
  } finally {
    await timed(`${table}: ${rows.length} indexes`, async () => {
      for (const index of rows) await db.query(index.definition)
    })
  }
}
