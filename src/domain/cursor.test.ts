import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor } from './cursor.ts'
import { AppError } from './errors.ts'

const id = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b'

describe('cursor', () => {
  it('round-trips a timestamp with microseconds and an id', () => {
    const cursor = { at: '2026-11-21T10:00:00.123456+00:00', id }
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor)
  })

  it('is the base64 of its UTF-8 bytes, ASCII or not', () => {
    const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
    const at = '2026-11-21T10:00:00.123456+00:00'
    expect(encodeCursor({ at, id })).toBe(utf8(`${at}|${id}`))
    expect(encodeCursor({ at: 'zwölf 🙂', id })).toBe(utf8(`zwölf 🙂|${id}`))
    expect(encodeCursor({ at: '\t\u0000', id })).toBe(utf8(`\t\u0000|${id}`))
    // No sort key is anything but ASCII: such a cursor is refused like any other malformed one.
    expect(() => decodeCursor(encodeCursor({ at: 'zwölf 🙂', id }))).toThrow(AppError)
    expect(decodeCursor(utf8(`12|${id}`), 'number')).toEqual({ at: '12', id })
  })

  it.each([
    ['not base64', '%%%'],
    ['not UTF-8 text', btoa(`2026-11-21T10:00:00Z\u00ff|${id}`)],
    ['no separator', btoa('2026-11-21T10:00:00Z')],
    ['bad date', btoa(`yesterday|${id}`)],
    ['bad id', btoa('2026-11-21T10:00:00Z|42')],
    ['extra part', btoa(`2026-11-21T10:00:00Z|${id}|x`)],
    // Shaped like a timestamp but not one the database accepts (it answered 500 before).
    ['a day the month does not have', btoa(`2026-02-30T10:00:00Z|${id}`)],
    ['the year 0', btoa(`0000-01-01T00:00:00Z|${id}`)],
    ['hour 24', btoa(`2026-11-21T24:00:00Z|${id}`)],
    ['an offset beyond any time zone', btoa(`2026-11-21T10:00:00+23:00|${id}`)],
  ])('rejects %s with Invalid cursor format', (_, value) => {
    try {
      decodeCursor(value)
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).code).toBe('validation')
      expect((error as AppError).messageKey).toBe('error.invalidCursor')
    }
  })
})
