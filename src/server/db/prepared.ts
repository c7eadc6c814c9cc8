import { Column, is, SQL, Subquery, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { Db, Tx } from './client.ts'

/**
 * A statement built once per database handle and shape, then executed with placeholder values.
 * Building a large select with drizzle costs more of the server's CPU than sending the answer
 * (decision 0216). Build it with `.prepare('')`: an unnamed statement, so PostgreSQL still plans it
 * with each request's values, as it would the statement built anew. A statement whose best plan
 * does not depend on the values gets a name instead (the plan is then kept, as `handWrittenOnce`
 * says): the prompts list without tag or folder filters (decision 0278).
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
      mapRowsFlat(statement)
      byShape.set(key, statement)
    }
    return statement
  }
}

/** What a driver value becomes in a row: a column's or an `sql` expression's mapping. */
interface Decoder {
  mapFromDriverValue(value: unknown): unknown
}

/** What drizzle keeps of a prepared select: its selected fields, in the order of the row's values. */
interface PreparedSelect {
  fields?: { path: string[]; field: unknown }[]
  customResultMapper?: (rows: unknown[][]) => unknown
}

/** The decoder drizzle's own mapper picks for a field (drizzle-orm's `mapResultRow`). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field
  const expression = is(field, SQL) ? field : is(field, Subquery) ? field._.sql : (field as SQL.Aliased).sql
  return (expression as unknown as { decoder: Decoder }).decoder
}

/** A decoder that hands the driver's value on as it is: a column type's own (text, uuid) or an `sql` without `mapWith`. */
function passesThrough(decoder: Decoder): boolean {
  return decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue || decoder === noopDecoder
}

/** `sql`'s decoder when it has no `mapWith`: the same object for every expression. */
const noopDecoder = (sql`1` as unknown as { decoder: Decoder }).decoder

/**
 * Gives a prepared select whose fields are all top-level (no nested objects) a row mapper resolved
 * once: drizzle's own mapper finds each field's decoder anew for every value of every row (an
 * `is()` chain per value), 8% of a prompts list's CPU (decision 0232). The rows come out the same:
 * each field under its name, `null` as is, any other value through the field's decoder.
 *
 * The mapper is a function made for the select's fields (decision 0270): an object literal with
 * the fields' names, so every row has one shape from its making (a row filled key by key took a
 * megamorphic store per value), and a value whose decoder passes it through is taken as it is.
 * The names are the code's own (the select's keys), written as JSON strings.
 */
export function mapRowsFlat(statement: unknown): void {
  const prepared = statement as PreparedSelect
  const fields = prepared.fields
  if (!fields || prepared.customResultMapper || fields.some(({ path }) => path.length !== 1)) return
  const decoders = fields.map(({ field }) => decoderOf(field))
  const properties = fields.map(({ path }, index) => {
    const value = `row[${index}]`
    const decoded = passesThrough(decoders[index]!)
      ? value
      : `${value} === null ? null : decoders[${index}].mapFromDriverValue(${value})`
    return `${JSON.stringify(path[0])}: ${decoded}`
  })
  const mapRow = new Function('decoders', `return (row) => ({ ${properties.join(', ')} })`)(decoders) as (
    row: unknown[],
  ) => Record<string, unknown>
  prepared.customResultMapper = (rows) => rows.map(mapRow)
}

const dialect = new PgDialect()

/**
 * A hand-written statement (raw SQL whose values are `sql.placeholder`s) built once per database
 * handle; it answers its rows as `db.execute` would. `db.execute` turns the SQL into text anew on
 * every call: a quarter of the server's CPU for an API key's lookup.
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
