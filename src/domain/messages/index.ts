import { de } from './de.ts'
import { en } from './en.ts'
import { interpolate, type Locale, type MessageParams } from './locales.ts'

export * from './locales.ts'

export type MessageKey = keyof typeof en

/** Messages shared by server and web: validation, errors, and what mails say. */
export const catalogs: Record<Locale, Record<MessageKey, string>> = { en, de }

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && value in en
}

export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  return interpolate(catalogs[locale][key] ?? catalogs.en[key], params, locale)
}
