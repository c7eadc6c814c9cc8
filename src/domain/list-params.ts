import { z } from 'zod'
import type { MessageKey } from './messages/index.ts'

/** Longer than any cursor the server hands out (a timestamp and a uuid in base64). */
const CURSOR_MAX_LENGTH = 200

/** A list's `cursor` query parameter; its content is checked by decodeCursor. */
export const cursorParam = z
  .string({ error: 'error.invalidCursor' })
  .max(CURSOR_MAX_LENGTH, 'error.invalidCursor')

/**
 * A list's `limit`: a whole number (else 400 'Limit must be a whole number'), clamped to the list's
 * bounds, the list's default when absent.
 */
export function limitParam(page: { default: number; max: number }) {
  return z.coerce
    .number({ error: 'error.invalidLimit' })
    .int('error.invalidLimit')
    .transform((limit) => Math.min(Math.max(limit, 1), page.max))
    .default(page.default)
}

/** A query parameter given once or repeated (`?tags=a&tags=b`), as a list. */
export function repeatedParam(errorKey: MessageKey) {
  return z
    .union([z.string(), z.array(z.string())], { error: errorKey })
    .transform((value) => (Array.isArray(value) ? value : [value]))
}
