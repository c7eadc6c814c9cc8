import { sql } from 'drizzle-orm'
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core'
import { afterAll, expect, it } from 'vitest'
import { createTestApp } from '../testing/test-app.ts'
import { queryRows } from './rows.ts'
import * as schema from './schema/index.ts'

/**
 * The drizzle tables (what the code queries) and the SQL migrations (what the database holds) are
 * written separately; this keeps them equal: the same tables, columns, types and nullability.
 */
const testApp = await createTestApp()
afterAll(() => testApp.close())

const isTable = (value: unknown): value is PgTable =>
  typeof value === 'object' && value !== null && Symbol.for('drizzle:Name') in value
const tables = (Object.values(schema) as unknown[]).filter(isTable)

interface ColumnRow extends Record<string, unknown> {
  table_name: string
  column_name: string
  udt_name: string
  is_nullable: 'YES' | 'NO'
}

/** The database's name of a drizzle column type (`_text` is PostgreSQL's name of `text[]`). */
function databaseType(column: ReturnType<typeof getTableConfig>['columns'][number]): string {
  const sqlType = column.getSQLType()
  const base = sqlType.replace(/\[\]$/, '').replace(/\(.*\)/, '')
  const names: Record<string, string> = {
    text: 'text',
    uuid: 'uuid',
    integer: 'int4',
    smallint: 'int2',
    bigint: 'int8',
    boolean: 'bool',
    jsonb: 'jsonb',
    json: 'json',
    'timestamp with time zone': 'timestamptz',
    timestamp: 'timestamp',
    inet: 'inet',
  }
  const name = names[base] ?? base
  return sqlType.endsWith('[]') ? `_${name}` : name
}

it('declares exactly the tables and columns the migrations create, with their types and nullability', async () => {
  const rows = await queryRows<ColumnRow>(
    testApp.database.db,
    // The tables of the schema this test database lives in (PGlite: public; PostgreSQL: its own).
    sql`SELECT table_name, column_name, udt_name, is_nullable
      FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'`,
  )
  const inDatabase = new Map<string, Map<string, string>>()
  for (const row of rows) {
    const columns = inDatabase.get(row.table_name) ?? new Map<string, string>()
    columns.set(row.column_name, `${row.udt_name}${row.is_nullable === 'YES' ? ' null' : ''}`)
    inDatabase.set(row.table_name, columns)
  }
  const inCode = new Map<string, Map<string, string>>()
  for (const table of tables) {
    const config = getTableConfig(table)
    inCode.set(
      config.name,
      new Map(
        config.columns.map((column) => [
          column.name,
          `${databaseType(column)}${column.notNull ? '' : ' null'}`,
        ]),
      ),
    )
  }
  const shapeOf = (map: Map<string, Map<string, string>>) =>
    Object.fromEntries(
      [...map].sort().map(([name, columns]) => [name, Object.fromEntries([...columns].sort())]),
    )
  expect(shapeOf(inCode)).toEqual(shapeOf(inDatabase))
})
