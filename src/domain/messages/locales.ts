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

export function interpolate(template: string, params?: MessageParams): string {
  if (!params) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  )
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
