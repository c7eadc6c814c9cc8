/**
 * The languages and what works on any catalog, without the catalogs themselves: the web app loads
 * only the active language's catalog (src/web/i18n), the server imports them all (./index.ts).
 */
export const locales = ['en', 'de'] as const
export type Locale = (typeof locales)[number]
export const defaultLocale: Locale = 'en'

export type MessageParams = Record<string, string | number>

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value)
}

const numberFormats = new Map<Locale, Intl.NumberFormat>()

/** Numbers as the language writes them (1,000,000 in English, 1.000.000 in German). */
export function formatNumber(locale: Locale, value: number): string {
  let format = numberFormats.get(locale)
  if (!format) {
    format = new Intl.NumberFormat(locale)
    numberFormats.set(locale, format)
  }
  return format.format(value)
}

/**
 * Fills a message's `{placeholders}`. Number parameters are written in `locale`'s way; a number
 * that names something (a version) is passed as a string and stays as it is.
 */
export function interpolate(template: string, params: MessageParams | undefined, locale: Locale): string {
  if (!params) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!(name in params)) return whole
    const value = params[name]
    return typeof value === 'number' ? formatNumber(locale, value) : String(value)
  })
}

/**
 * Picks the best supported locale from an Accept-Language header value
 * ('de-DE,de;q=0.9,en;q=0.8' → 'de'), honouring q-weights.
 */
export function pickLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return defaultLocale
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...rest] = part.trim().split(';')
      const q = rest.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { base: tag.toLowerCase().split('-')[0] ?? '', weight: q ? Number(q.slice(2)) : 1, index }
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
  return (ranked.find((entry) => isLocale(entry.base))?.base as Locale | undefined) ?? defaultLocale
}
