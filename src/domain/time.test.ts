import { describe, expect, it } from 'vitest'
import {
  dashboardRelativeTime,
  formatLongDateTime,
  formatNumericDateTime,
  formatShortDate,
  relativeTime,
} from './time.ts'

const now = new Date('2026-11-21T12:00:00Z')
const ago = (ms: number) => new Date(now.getTime() - ms)

describe('relativeTime', () => {
  it.each([
    [0, { unit: 'now' }],
    [59_999, { unit: 'now' }],
    [60_000, { unit: 'minutes', count: 1 }],
    [59 * 60_000, { unit: 'minutes', count: 59 }],
    [60 * 60_000, { unit: 'hours', count: 1 }],
    [23 * 3_600_000 + 59 * 60_000, { unit: 'hours', count: 23 }],
    [24 * 3_600_000, { unit: 'days', count: 1 }],
    [6 * 86_400_000, { unit: 'days', count: 6 }],
  ])('%i ms ago → %j', (ms, expected) => {
    expect(relativeTime(ago(ms), now)).toEqual(expected)
  })

  it('shows a date from a week on, and treats future times as now', () => {
    expect(relativeTime(ago(7 * 86_400_000), now).unit).toBe('date')
    expect(relativeTime(new Date(now.getTime() + 5000), now)).toEqual({ unit: 'now' })
  })
})

describe('formatShortDate', () => {
  it('uses US English by default', () => {
    expect(formatShortDate('2026-11-21T12:00:00Z')).toBe('Nov 21, 2026')
  })

  it('keeps each language and style apart (formatters are kept per both)', () => {
    const at = '2026-11-21T12:00:00Z'
    expect(formatShortDate(at, 'de')).toBe('21. Nov. 2026')
    expect(formatShortDate(at, 'en')).toBe('Nov 21, 2026')
    expect(formatLongDateTime(at, 'en')).toMatch(/^November 2[01], 2026 at \d{1,2}:\d{2}\s[AP]M$/)
    expect(formatLongDateTime(at, 'de')).toMatch(/^2[01]\. November 2026 um \d{1,2}:\d{2}$/)
    expect(formatShortDate(at, 'de')).toBe('21. Nov. 2026')
  })

  it('gives the tooltip the same text as Date.toLocaleString in either language', () => {
    const at = '2026-11-21T12:00:00Z'
    for (const locale of ['en', 'de']) {
      expect(formatNumericDateTime(at, locale)).toBe(new Date(at).toLocaleString(locale))
    }
  })
})

describe('dashboardRelativeTime', () => {
  it.each([
    [30_000, 'now'],
    [5 * 60_000, 'minutes'],
    [3 * 3_600_000, 'hours'],
    [24 * 3_600_000, 'date'],
    [3 * 86_400_000, 'date'],
    [30 * 86_400_000, 'date'],
  ])('%i ms ago → %s', (ms, unit) => {
    expect(dashboardRelativeTime(ago(ms), now).unit).toBe(unit)
  })
})
