import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, expect, it } from 'vitest'
import { createTestApp } from '../testing/test-app.ts'
import { MIGRATIONS_DIR, migrationNames } from './migrate.ts'
import { queryRows } from './rows.ts'

// A started database (createTestApp applies every migration), then restarts: with nothing pending,
// and after an upgrade that brings a migration of its own.
const testApp = await createTestApp()
const upgradeDir = mkdtempSync(path.join(tmpdir(), 'promptfolio-migrations-'))
afterAll(async () => {
  rmSync(upgradeDir, { recursive: true, force: true })
  await testApp.close()
})

const recorded = async () =>
  (await queryRows<{ name: string }>(testApp.database.db, sql`SELECT name FROM schema_migrations`))
    .map((row) => row.name)
    .sort()

it('applies nothing on a restart with every migration recorded', async () => {
  expect(await recorded()).toEqual(migrationNames())
  expect(await testApp.database.migrate()).toEqual([])
  expect(await recorded()).toEqual(migrationNames())
})

it('applies, on the restart after an upgrade, the migration the upgrade brought, and only once', async () => {
  cpSync(MIGRATIONS_DIR, upgradeDir, { recursive: true })
  writeFileSync(path.join(upgradeDir, '9999_upgrade_probe.sql'), 'CREATE TABLE upgrade_probe (id int);')
  expect(await testApp.database.migrate(upgradeDir)).toEqual(['9999_upgrade_probe.sql'])
  expect(await recorded()).toEqual([...migrationNames(), '9999_upgrade_probe.sql'])
  await testApp.database.db.execute(sql`INSERT INTO upgrade_probe VALUES (1)`)
  expect(await testApp.database.migrate(upgradeDir)).toEqual([])
})

it.runIf(testApp.database.kind === 'postgres')(
  'does not wait for the migration lock when nothing is pending (PostgreSQL)',
  async () => {
    // Another process holds the lock, as while it migrates: a start with nothing to apply goes on.
    const holder = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    await holder.connect()
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtext('promptfolio.migrations'))`)
      expect(await testApp.database.migrate()).toEqual([])
    } finally {
      await holder.end()
    }
  },
)
