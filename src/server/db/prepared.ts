import type { SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { Db, Tx } from './client.ts'

/**
 * A statement built once per database handle and shape, then executed with placeholder values.
 * Building a large select with drizzle costs more of the server's CPU than sending the answer
 * (issue 19). Build it with `.prepare('')`: an unnamed statement, so PostgreSQL still plans it
 * with each request's values, as it would the statement built anew.
 */
export function builtOnce<Shape, Statement>(
  build: (db: Db | Tx, shape: Shape) => Statement,
  keyOf: (shape: Shape) => string = () => '',
): (db: Db | Tx, shape: Shape) => Statement {
  const built = new WeakMap<Db | Tx, Map<string, Statement>>()
  return (db, shape) => {
    let byShape = built.get(db)
    if (!byShape) {
      byShape = new Map()
      built.set(db, byShape)
    }
    const key = keyOf(shape)
    let statement = byShape.get(key)
    if (!statement) {
      statement = build(db, shape)
      byShape.set(key, statement)
    }
    return statement
  }
}

const dialect = new PgDialect()

/**
 * A hand-written statement (raw SQL whose values are `sql.placeholder`s) built once per database
 * handle; it answers its rows as `db.execute` would. `db.execute` turns the SQL into text anew on
 * every call: a quarter of the server's CPU for an API key's lookup (issue 15).
 *
 * With a `name` it is a named prepared statement on PostgreSQL: each connection parses and plans
 * it once, then reuses the plan (PostgreSQL's plan cache picks a generic plan after five runs).
 * Only for statements that find rows by equality on unique indexes, whose best plan does not
 * depend on the values: for the Langfuse fetch, planning cost five times its execution.
 */
export function handWrittenOnce<Row extends Record<string, unknown>>(
  query: SQL,
  name = '',
): (db: Db | Tx, values: Record<string, unknown>) => Promise<Row[]> {
  const statementOf = builtOnce((db: Db | Tx) =>
    db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false),
  )
  return async (db, values) => {
    const result = (await statementOf(db, undefined).execute(values)) as { rows: Row[] }
    return result.rows
  }
}
