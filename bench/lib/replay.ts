import pg from 'pg'

/** One SQL statement of an API request, as the app handed it to the `pg` driver (`sqlRecorder`). */
export interface Statement {
  text: string
  values: unknown[]
  /** The prepared statement's name when the app names it (replayed the same way). */
  name?: string
  /** Rows as arrays, as drizzle asks for them when it maps the columns itself. */
  rowMode?: 'array'
  /** The app's driver hands dates, times and intervals over as text (drizzle's parsers). */
  datesAsText?: true
  /**
   * Sent while an earlier statement of the same request was still running (the app's Promise.all):
   * a replay sends it beside that one, not after.
   */
  alongside?: true
}

/**
 * The types drizzle's node-postgres session leaves as text (drizzle-orm/node-postgres/session.js):
 * date, timestamp, timestamptz, interval and their arrays, and numeric[]. Parsing them into Dates
 * would give a replay work the app does not do.
 */
const TEXT_TYPES = new Set([1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231])
const drizzleTypes = {
  getTypeParser: (id: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(id) ? (value: string) => value : pg.types.getTypeParser(id, format),
}

/**
 * Runs one request's statements on `client` (a pool or one connection) as the app sent them: same
 * names, row mode and parsers, in the same order, and those the app sent together, together.
 */
export async function replay(client: Pick<pg.Pool, 'query'>, statements: Statement[]): Promise<void> {
  for (let start = 0; start < statements.length; ) {
    let end = start + 1
    while (statements[end]?.alongside) end += 1
    await Promise.all(
      statements.slice(start, end).map(({ text, values, name, rowMode, datesAsText }) =>
        client.query({
          text,
          values,
          ...(name && { name }),
          ...(rowMode && { rowMode }),
          ...(datesAsText && { types: drizzleTypes }),
        } as pg.QueryConfig),
      ),
    )
    start = end
  }
}
