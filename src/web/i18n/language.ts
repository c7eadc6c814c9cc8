import { defaultLocale, isLocale, type Locale } from '../../domain/messages/locales.ts'

/** Where the user's choice of language is kept. */
export const STORAGE_KEY = 'promptfolio.lang'

/** The saved choice, else the browser's preference (German when it prefers German), else English. */
export function detectLanguage(): Locale {
  try {
    const saved = localStorage.getItem(STORAGE_KEY)
    if (isLocale(saved)) return saved
  } catch {
    // storage may be blocked; fall through to the browser's preference
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0]
    if (isLocale(base)) return base
  }
  return defaultLocale
}
