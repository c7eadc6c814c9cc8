import { z } from 'zod'
import type { MessageKey } from './messages/index.ts'

/** Longer than any cursor the server hands out (a timestamp and a uuid in base64). */
const CURSOR_MAX_LENGTH = 200

/** A list's `cursor` query parameter; its content is checked by decodeCursor. */
export const cursorParam = z
  .string({ error: 'error.invalidCursor' })
  .max(CURSOR_MAX_LENGTH, 'error.invalidCursor')

/** A query parameter given once or repeated (`?tags=a&tags=b`), as a list. */
export function repeatedParam(errorKey: MessageKey) {
  return z
    .union([z.string(), z.array(z.string())], { error: errorKey })
    .transform((value) => (Array.isArray(value) ? value : [value]))
}
