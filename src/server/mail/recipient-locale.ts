import { sql } from 'drizzle-orm'
import { isLocale, type Locale } from '../../domain/messages/index.ts'
import type { Db, Tx } from '../db/client.ts'
import { queryRows } from '../db/rows.ts'

/**
 * The language to write to `email` in: the account's profile locale, or `fallback` (the language
 * of the request that caused the mail) for an address without an account.
 */
export async function recipientLocale(db: Db | Tx, email: string, fallback: Locale): Promise<Locale> {
  const [row] = await queryRows<{ preferred_locale: string }>(
    db,
    sql`SELECT p.preferred_locale FROM users u JOIN profiles p ON p.user_id = u.id
        WHERE u.email = ${email.trim().toLowerCase()}`,
  )
  return isLocale(row?.preferred_locale) ? row.preferred_locale : fallback
}
