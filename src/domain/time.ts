/**
 * Relative times and dates as the spec shows them: 'just now' up to a minute, then minutes,
 * hours and days up to a week, then a date. Dates use US English formats (short month in lists,
 * long month with time on detail pages); the web app passes its language for German users.
 */
export type RelativeTime =
  | { unit: 'now' }
  | { unit: 'minutes' | 'hours' | 'days'; count: number }
  | { unit: 'date'; date: Date }

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export function relativeTime(value: Date | string, now: Date = new Date()): RelativeTime {
  const date = typeof value === 'string' ? new Date(value) : value
  const elapsed = Math.max(0, now.getTime() - date.getTime())
  if (elapsed < MINUTE) return { unit: 'now' }
  if (elapsed < HOUR) return { unit: 'minutes', count: Math.floor(elapsed / MINUTE) }
  if (elapsed < DAY) return { unit: 'hours', count: Math.floor(elapsed / HOUR) }
  if (elapsed < 7 * DAY) return { unit: 'days', count: Math.floor(elapsed / DAY) }
  return { unit: 'date', date }
}

const localeTag = (locale: string) => (locale === 'de' ? 'de-DE' : 'en-US')

const dateStyles = {
  short: { month: 'short', day: 'numeric', year: 'numeric' },
  long: { month: 'long', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' },
  // What Date's toLocaleString() gives.
  numeric: {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>

/**
 * One formatter per style and language, made when first used: making one costs about half a
 * millisecond, and a conversation's 100 messages made one each for their tooltips.
 */
const formatters = new Map<string, Intl.DateTimeFormat>()
function dateFormatter(style: keyof typeof dateStyles, locale: string): Intl.DateTimeFormat {
  const key = `${style} ${locale}`
  let formatter = formatters.get(key)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(localeTag(locale), dateStyles[style])
    formatters.set(key, formatter)
  }
  return formatter
}

/** 'Nov 21, 2026' (lists). */
export function formatShortDate(value: Date | string, locale = 'en'): string {
  return dateFormatter('short', locale).format(new Date(value))
}

/** '11/21/2026, 3:04:05 PM' (the full time in a relative time's tooltip). */
export function formatNumericDateTime(value: Date | string, locale = 'en'): string {
  return dateFormatter('numeric', locale).format(new Date(value))
}

/** 'November 21, 2026 at 3:04 PM' (detail pages). */
export function formatLongDateTime(value: Date | string, locale = 'en'): string {
  return dateFormatter('long', locale).format(new Date(value))
}

/**
 * The dashboard's variant: minutes under an hour, hours under a day, else the date ('just now'
 * under a minute, like the lists).
 */
export function dashboardRelativeTime(value: Date | string, now: Date = new Date()): RelativeTime {
  const time = relativeTime(value, now)
  return time.unit === 'days' ? { unit: 'date', date: new Date(value) } : time
}
