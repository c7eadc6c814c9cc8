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
