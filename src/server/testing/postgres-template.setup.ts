import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '../db/client.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The SQL that makes a migrated schema (every migration applied and recorded) in the database
     * of TEST_DATABASE_URL, its name written as `postgresTemplateSchema`; empty when pg_dump could
     * not make it (each test app then runs the migrations itself).
     */
    postgresTemplateSql: string
    postgresTemplateSchema: string
  }
}

/**
 * Once per run of the PostgreSQL API tests: every migration applied to one schema, which pg_dump
 * then writes out as SQL; each test app replays that SQL under its own schema name
 * (test-app.ts) instead of running every migration. The same idea as pglite-template.setup.ts.
 * Made from this checkout's migrations at every run, so it is never stale; the migrations
 * themselves still run in full here, and on a fresh schema in scale-out.postgres.test.ts.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL
  const schema = `test_template_${randomBytes(6).toString('hex')}`
  project.provide('postgresTemplateSchema', schema)
  project.provide('postgresTemplateSql', '')
  if (!url) return
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`CREATE SCHEMA ${schema}`)
    const database = await openDatabase({ kind: 'postgres', url, searchPath: schema, max: 2 })
    try {
      await database.migrate()
    } finally {
      await database.close()
    }
    project.provide('postgresTemplateSql', dumpSchema(url, schema))
  } catch (error) {
    console.warn(
      `No PostgreSQL template schema (${(error as Error).message.split('\n')[0]}); every test app migrates its own.`,
    )
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await admin.end()
  }
}

/**
 * The schema's tables, functions, indexes and rows as SQL. pg_dump must not be older than the
 * server (it refuses then); psql's meta-commands (`\restrict`) are left out: they are for psql,
 * and this SQL goes to the server as one simple query.
 */
function dumpSchema(url: string, schema: string): string {
  const dump = execFileSync(
    'pg_dump',
    ['--dbname', url, '--schema', schema, '--inserts', '--no-owner', '--no-privileges'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 },
  )
  return dump
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n')
}
