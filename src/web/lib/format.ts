import type { Locale } from '../../domain/messages/locales.ts'
import { currentLanguage } from '../i18n/index.ts'

/**
 * Dates and numbers in the UI's language, never the browser's: a German UI in an English browser
 * shows "28. Nov. 2026", an English UI in a German one "Nov 28, 2026". `locale` is for tests.
 */
export function formatDate(value: string | Date, locale: Locale = currentLanguage()): string {
  return new Date(value).toLocaleDateString(locale, { month: 'short', day: 'numeric', year: 'numeric' })
}

/** A date with its time of day, to the minute. */
export function formatDateTime(value: string | Date, locale: Locale = currentLanguage()): string {
  return new Date(value).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })
}

/** A time of day, to the second (a check's moment). */
export function formatTime(value: string | Date, locale: Locale = currentLanguage()): string {
  return new Date(value).toLocaleTimeString(locale)
}

/** A count with the language's grouping: 1,000,000 or 1.000.000. */
export function formatNumber(value: number, locale: Locale = currentLanguage()): string {
  return value.toLocaleString(locale)
}
