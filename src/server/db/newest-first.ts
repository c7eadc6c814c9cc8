import { type SQL, sql } from 'drizzle-orm'
import type { Db } from './client.ts'
import { queryRows } from './rows.ts'

/**
 * How many of the newest rows a search reads, per row of the page, before it asks the trigram
 * index (decision 0234): a search that matches at least one in this many of them is answered from
 * them; a rarer one costs this many rows more than the index alone.
 */
export const SEARCH_WINDOW_PER_ROW = 100

/** A list kept newest first on (created_at, id), such as the admin's users and teams. */
export interface NewestFirstList {
  /** A page's statement: the rows of `from` (the table, or a window of it) that `where` keeps, newest first, at most `limit`. */
  select(where: SQL, limit: number, from?: SQL): SQL
  /** A subquery of the newest `rows` rows that `listed` keeps, in index order, with the columns `select` reads. */
  newest(listed: SQL, rows: number): SQL
}

/**
 * The rows of a page (and one more, which says another page exists). A search is answered from
 * the newest rows when they hold a full page of matches: every other match is older than all of
 * them, so these are the page, found in a bounded read whatever the planner estimates. Otherwise
 * the one statement over every match, where the planner picks between the trigram index and
 * reading the rows newest first (decision 0234).
 */
export async function newestFirstRows<Row extends Record<string, unknown>>(
  db: Db,
  list: NewestFirstList,
  listed: SQL,
  matches: SQL | undefined,
  rows: number,
): Promise<Row[]> {
  if (!matches) return queryRows<Row>(db, list.select(listed, rows))
  const window = list.newest(listed, rows * SEARCH_WINDOW_PER_ROW)
  const newest = await queryRows<Row>(db, list.select(matches, rows, window))
  if (newest.length === rows) return newest
  return queryRows<Row>(db, list.select(sql`${listed} AND ${matches}`, rows))
}
