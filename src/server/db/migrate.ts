import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export interface MigrationSession {
  exec(sql: string): Promise<void>
  query(sql: string): Promise<Record<string, unknown>[]>
}

/** Runs `fn` on one connection that holds the migration lock for its duration. */
export type WithMigrationLock = <T>(fn: (session: MigrationSession) => Promise<T>) => Promise<T>

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url))

export function migrationFiles(): { name: string; sql: string }[] {
  return readdirSync(migrationsDir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(`${migrationsDir}${name}`, 'utf8') }))
}

/**
 * Applies the SQL files of ./migrations in name order, each in its own transaction, and records them
 * in schema_migrations. drizzle-kit's migrator is not used because it cannot load pg_trgm on PGlite.
 * Returns the names applied by this call.
 */
export async function applyMigrations(withLock: WithMigrationLock): Promise<string[]> {
  return withLock(async (session) => {
    await session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const done = new Set(
      (await session.query('SELECT name FROM schema_migrations')).map((row) => String(row.name)),
    )
    const applied: string[] = []
    for (const migration of migrationFiles()) {
      if (done.has(migration.name)) continue
      const name = migration.name.replaceAll("'", "''")
      try {
        await session.exec(
          `BEGIN;\n${migration.sql}\n;INSERT INTO schema_migrations (name) VALUES ('${name}');\nCOMMIT;`,
        )
      } catch (error) {
        await session.exec('ROLLBACK').catch(() => {})
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`)
      }
      applied.push(migration.name)
    }
    return applied
  })
}
