import { AppError } from './errors.ts'

/**
 * List cursors (§5, §9): base64 of `<timestamp>|<id>`, the sort key of the last row of a page.
 * The timestamp is an ISO string with microseconds when the database gives them, so rows that
 * share a millisecond are not skipped.
 */
export interface Cursor {
  at: string
  id: string
}

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

function fromBase64(text: string): string {
  const binary = atob(text)
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)))
}

export function encodeCursor(cursor: Cursor): string {
  return toBase64(`${cursor.at}|${cursor.id}`)
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const timestampPattern = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/

/** Anything that is not base64 of a timestamp and a uuid is 400 'Invalid cursor format'. */
export function decodeCursor(value: string): Cursor {
  let text: string
  try {
    text = fromBase64(value)
  } catch {
    throw new AppError('validation', 'error.invalidCursor', { fields: { cursor: 'error.invalidCursor' } })
  }
  const [at = '', id = '', ...rest] = text.split('|')
  if (
    rest.length > 0 ||
    !timestampPattern.test(at) ||
    !uuidPattern.test(id) ||
    Number.isNaN(Date.parse(at))
  ) {
    throw new AppError('validation', 'error.invalidCursor', { fields: { cursor: 'error.invalidCursor' } })
  }
  return { at, id }
}

/** A page of a list (§3 "List result: items plus optional nextCursor"). */
export interface Page<T> {
  items: T[]
  nextCursor: string | null
}
