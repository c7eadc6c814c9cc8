import { type SQL, sql } from 'drizzle-orm'
import { encodeCursor, type Page } from '../../../domain/cursor.ts'

/**
 * Keyset pagination helpers. The cursor carries the sort timestamp as UTC text with microseconds,
 * read by the database itself: a JavaScript Date would cut it to milliseconds, and rows sharing a
 * millisecond would then be skipped or repeated across pages.
 */
export function cursorTimestamp(column: SQL): SQL {
  return sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
}

export type KeysetRow = {
  id: string
  cursor_at: string
}

/** `rows` were fetched with `LIMIT limit + 1`: the extra row only says that another page exists. */
export function pageOf<R extends KeysetRow, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const pageRows = rows.slice(0, limit)
  const last = pageRows.at(-1)
  return {
    items: pageRows.map(map),
    nextCursor: rows.length > limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  }
}
