import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface MigrationSession {
  exec(sql: string): Promise<void>
  query(sql: string): Promise<Record<string, unknown>[]>
}

/** Runs `fn` on one connection that holds the migration lock for its duration. */
export type WithMigrationLock = <T>(fn: (session: MigrationSession) => Promise<T>) => Promise<T>

/** How a database is migrated: a read outside the lock (the check at every start), and the lock. */
export interface MigrationTarget {
  query: MigrationSession['query']
  withLock: WithMigrationLock
}

/** The app's migrations (beside the bundle in dist/server, beside this file in src/server/db). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url))

/** The names of the SQL files in `dir`, in the order they apply. */
export function migrationNames(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
}

/**
 * The migrations in `dir` that schema_migrations does not record (all of them on an empty
 * database), without the lock. The table is looked for in the schema the migrations create it in
 * (the first of the search path): a schema_migrations further down the path is another database's.
 */
async function pendingMigrations(query: MigrationSession['query'], dir: string): Promise<string[]> {
  const [table] = await query(
    `SELECT to_regclass(format('%I.schema_migrations', current_schema())) IS NOT NULL AS present`,
  )
  const recorded = table?.present === true ? await query('SELECT name FROM schema_migrations') : []
  const done = new Set(recorded.map((row) => String(row.name)))
  return migrationNames(dir).filter((name) => !done.has(name))
}

/**
 * Applies the SQL files of `dir` (the app's ./migrations) in name order, each in its own
 * transaction, and records them in schema_migrations. drizzle-kit's migrator is not used because
 * it cannot load pg_trgm on PGlite. Returns the names applied by this call.
 *
 * A start with nothing to apply costs two small selects and reads no file: the lock (and with it the
 * creation of schema_migrations) is taken only when something is pending. Under the lock the list
 * is read again, so of two processes starting at once the second applies nothing the first did;
 * one that sees everything recorded sees it committed.
 */
export async function applyMigrations(target: MigrationTarget, dir = MIGRATIONS_DIR): Promise<string[]> {
  if ((await pendingMigrations(target.query, dir)).length === 0) return []
  return target.withLock(async (session) => {
    await session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const applied: string[] = []
    for (const name of await pendingMigrations(session.query, dir)) {
      const sql = readFileSync(path.join(dir, name), 'utf8')
      const quoted = name.replaceAll("'", "''")
      try {
        await session.exec(
          `BEGIN;\n${sql}\n;INSERT INTO schema_migrations (name) VALUES ('${quoted}');\nCOMMIT;`,
        )
      } catch (error) {
        await session.exec('ROLLBACK').catch(() => {})
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`)
      }
      applied.push(name)
    }
    return applied
  })
}
