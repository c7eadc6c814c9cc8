import { sql } from 'drizzle-orm'
import { afterAll, expect, it } from 'vitest'
import { createTestApp } from '../testing/test-app.ts'
import { queryRows } from './rows.ts'

const testApp = await createTestApp()
afterAll(() => testApp.close())

/**
 * Deleting a referenced row looks up the rows that reference it; without an index led by the
 * referencing column that reads the whole table once per deleted row (decision 0266). Keys to
 * `users` need none: an account is never deleted, only emptied to a tombstone (decision 0180), so
 * no delete ever looks them up.
 */
it('gives every foreign key an index led by its first column, but those to accounts', async () => {
  const unindexed = await queryRows<{ constraint: string }>(
    testApp.database.db,
    sql`SELECT c.conrelid::regclass::text || '.' || c.conname AS constraint
      FROM pg_constraint c
      WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
        AND c.confrelid <> 'users'::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1])
      ORDER BY 1`,
  )
  expect(unindexed).toEqual([])
})
