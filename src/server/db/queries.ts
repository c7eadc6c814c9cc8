import { type AnyColumn, is, Placeholder, type SQL, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { type CursorKey, decodeCursor, encodeCursor, type Page } from '../../domain/cursor.ts'

/**
 * The SQL pieces every module's queries are built from, written once: who is in which team,
 * text search, tag filters and keyset paging.
 */

/** A value, or a placeholder that a prepared query fills in on each execution. */
export type Param<T> = T | Placeholder

/**
 * The ids of the teams `userId` belongs to, as a parenthesised subquery:
 * `inArray(prompts.teamId, teamsOf(me))`, or `team_id IN ${teamsOf(me)}` in raw SQL.
 */
export function teamsOf(userId: Param<string>): SQL {
  return sql`(SELECT team_id FROM team_members WHERE user_id = ${userId})`
}

/** `text` with the LIKE signs `%`, `_` and `\\` made literal. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '\\$&')

/** The ILIKE pattern of a "contains" match in which `%` and `_` typed by the user are literal. */
export function containsPattern(text: string): string {
  return `%${likeLiteral(text)}%`
}

/**
 * "`column` starts with `prefix`" as a range of a text_pattern_ops btree, which compares the bytes:
 * from the prefix up to (not including) the prefix with its last character's successor. Unlike
 * `LIKE 'ab%'` a trigram index cannot serve it, so the planner cannot trade the btree's index-only
 * scan for a trigram scan that reads every match's row on a poor estimate. UTF-8 keeps the order of
 * code points, so the range holds exactly the strings that start with the prefix.
 */
export function startsWith(column: SQL, prefix: string): SQL {
  const below = successorOfLast(prefix)
  return below === null
    ? sql`${column} ~>=~ ${prefix}`
    : sql`${column} ~>=~ ${prefix} AND ${column} ~<~ ${below}`
}

/** The prefix with its last character replaced by the next code point (no surrogates); none after U+10FFFF or for ''. */
function successorOfLast(prefix: string): string | null {
  const characters = [...prefix]
  const last = characters.pop()?.codePointAt(0)
  if (last === undefined || last >= 0x10ffff) return null
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1
  return characters.join('') + String.fromCodePoint(next)
}

/** A case-insensitive "contains" match (`containsPattern`), or its placeholder in a built statement. */
export function containsText(column: AnyColumn | SQL, text: string | Placeholder): SQL {
  return sql`${column} ILIKE ${typeof text === 'string' ? containsPattern(text) : text}`
}

/** The row carries every one of `tags` (served by the column's GIN index); one array parameter. */
export function hasAllTags(column: AnyColumn | SQL, tags: Param<readonly string[]>): SQL {
  // A bare array in a drizzle template would become a list of parameters, not one array.
  return sql`${column} @> ${is(tags, Placeholder) ? tags : sql.param(tags)}::text[]`
}

/**
 * The `created_at` of a row written now that sorts after every earlier row of its scope (the rows
 * whose `scopeColumn` is `scope`), for rows read in `(created_at, id)` order: at least a
 * microsecond after the scope's latest. clock_timestamp() alone ties within a millisecond on
 * PGlite, whose clock has no finer resolution, and the random id then ordered the tie (decision
 * 0237). Both columns are of the table written to. Call it under the lock that serializes the
 * scope's writes; an index on `scopeColumn` finds the scope's rows.
 */
export function createdAfterAll(createdAt: PgColumn, scopeColumn: PgColumn, scope: string): SQL {
  // By name: the subquery reads the one table it names.
  const column = (c: PgColumn) => sql.identifier(c.name)
  return sql`greatest(clock_timestamp(), (SELECT max(${column(createdAt)}) + interval '1 microsecond'
    FROM ${createdAt.table} WHERE ${column(scopeColumn)} = ${scope}))`
}

/**
 * `rows` as a relation for one INSERT … SELECT: `json_to_recordset` of ONE text parameter holding
 * them all, named `r`, its columns as `definition` declares them (`name type, …`, the rows' keys).
 * For batches of thousands of rows: drizzle's multi-row VALUES makes a parameter (and several
 * objects) of every value, which made most of an import's garbage and its server CPU.
 */
export function jsonRecords(rows: readonly Record<string, unknown>[], definition: string): SQL {
  return sql`json_to_recordset(${JSON.stringify(rows)}::json) AS r (${sql.raw(definition)})`
}

/**
 * A timestamp as the cursor carries it: UTC text with microseconds, made by the database itself.
 * A JavaScript Date would cut it to milliseconds, and rows sharing a millisecond would be skipped.
 */
export function cursorTimestamp(column: AnyColumn | SQL): SQL<string> {
  return sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
}

/**
 * A timestamp as the API writes it, made by the database: UTC to the millisecond, the text
 * `Date#toISOString` gives (`2026-01-02T03:04:05.678Z`; the microseconds cut, as a Date read from
 * the driver cuts them). Parsing each value into a Date and printing it again cost more of a list's
 * server CPU than its JSON (decision 0270).
 */
export function isoTimestampText(column: AnyColumn | SQL): SQL<string> {
  return sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}

/** A cursor's timestamp (`cursorTimestamp`) as the API writes the same instant (`isoTimestampText`). */
export function isoOfCursorTimestamp(cursorAt: string): string {
  // 'YYYY-MM-DDTHH:MI:SS.' and three of the six digits of the microseconds.
  return `${cursorAt.slice(0, 23)}Z`
}

/**
 * Keyset paging over `(key, id)` in one direction: the rows after the cursor's position. Lists
 * order by the same pair, with `LIMIT limit + 1` so `toPage` can tell whether another page exists.
 */
export function afterCursor(
  key: { column: AnyColumn | SQL; kind: CursorKey },
  id: AnyColumn | SQL,
  cursor: { at: Param<string>; id: Param<string> },
  direction: 'desc' | 'asc' = 'desc',
): SQL {
  const at = typeof cursor.at === 'string' && key.kind === 'number' ? Number(cursor.at) : cursor.at
  const position = key.kind === 'timestamp' ? sql`${at}::timestamptz` : sql`${at}::integer`
  const operator = direction === 'desc' ? sql`<` : sql`>`
  return sql`(${key.column}, ${id}) ${operator} (${position}, ${cursor.id}::uuid)`
}

/** The condition for a list's optional `cursor` query parameter (400 when it is malformed). */
export function pageCondition(
  key: { column: AnyColumn | SQL; kind: CursorKey },
  id: AnyColumn | SQL,
  cursor: string | undefined,
  direction: 'desc' | 'asc' = 'desc',
): SQL | undefined {
  return cursor ? afterCursor(key, id, decodeCursor(cursor, key.kind), direction) : undefined
}

/**
 * One page from rows fetched with `LIMIT limit + 1`: the extra row only says that another page
 * exists. `keyOf` gives a row's sort key as the cursor carries it.
 */
export function toPage<R extends { id: string }, T>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => string | number,
  map: (row: R) => T,
): Page<T> {
  const pageRows = rows.slice(0, limit)
  const last = pageRows.at(-1)
  return {
    items: pageRows.map(map),
    nextCursor: rows.length > limit && last ? encodeCursor({ at: String(keyOf(last)), id: last.id }) : null,
  }
}
