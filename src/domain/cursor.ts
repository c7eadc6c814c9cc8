import { AppError } from './errors.ts'

/**
 * List cursors: base64 of `<timestamp>|<id>`, the sort key of the last row of a page.
 * The timestamp is an ISO string with microseconds when the database gives them, so rows that
 * share a millisecond are not skipped.
 */
export interface Cursor {
  at: string
  id: string
}

const utf8Encoder = new TextEncoder()
const utf8Decoder = new TextDecoder()
/**
 * Printable ASCII, whose UTF-8 bytes are its own characters: every cursor the app makes (a sort
 * key and an id). Any other text, control characters included, goes through the UTF-8 coders.
 */
const printableAscii = /^[ -~]*$/

// Printable ASCII goes straight through btoa and atob: copying it byte by byte through the UTF-8
// coders was about 3 µs of each list page's server CPU to write its next cursor and 14 µs to read one.
function toBase64(text: string): string {
  if (printableAscii.test(text)) return btoa(text)
  let binary = ''
  for (const byte of utf8Encoder.encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

function fromBase64(text: string): string {
  const binary = atob(text)
  if (printableAscii.test(binary)) return binary
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return utf8Decoder.decode(bytes)
}

export function encodeCursor(cursor: Cursor): string {
  return toBase64(`${cursor.at}|${cursor.id}`)
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const timestampPattern =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-](\d{2})(:?(\d{2}))?)$/

/**
 * Whether the fields name a real moment the database accepts: the regex alone lets through
 * 2026-02-30, the year 0 or an offset of +23:00, which PostgreSQL refuses (a 500 otherwise).
 */
function isRealTimestamp(text: string): boolean {
  const match = timestampPattern.exec(text)
  if (!match) return false
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const offsetHours = Number(match[9] ?? 0)
  const offsetMinutes = Number(match[11] ?? 0)
  const date = new Date(Date.UTC(year, month - 1, day))
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 14 &&
    offsetMinutes <= 59
  )
}

/**
 * What a list sorts by before its id: a timestamp (most lists), a whole number (a prompt's
 * versions, by version number), or a search's rank and then a timestamp (`<rank>:<timestamp>`,
 * the searched prompts list).
 */
export type CursorKey = 'timestamp' | 'number' | 'ranked'

const isSortKey: Record<CursorKey, (text: string) => boolean> = {
  timestamp: isRealTimestamp,
  number: (text) => /^\d{1,9}$/.test(text),
  ranked: (text) => {
    const match = /^(\d{1,4}):(.+)$/.exec(text)
    return match !== null && isRealTimestamp(match[2]!)
  },
}

/** Anything that is not base64 of a sort key and a uuid is 400 'Invalid cursor format'. */
export function decodeCursor(value: string, key: CursorKey = 'timestamp'): Cursor {
  let text: string
  try {
    text = fromBase64(value)
  } catch {
    throw new AppError('validation', 'error.invalidCursor', { fields: { cursor: 'error.invalidCursor' } })
  }
  const [at = '', id = '', ...rest] = text.split('|')
  if (rest.length > 0 || !isSortKey[key](at) || !uuidPattern.test(id)) {
    throw new AppError('validation', 'error.invalidCursor', { fields: { cursor: 'error.invalidCursor' } })
  }
  return { at, id }
}

/** A page of a list. */
export interface Page<T> {
  items: T[]
  nextCursor: string | null
}
