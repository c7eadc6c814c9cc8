import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import {
  defaultLocale,
  isLocale,
  type Locale,
  type MessageKey,
  type MessageParams,
  translate,
} from '../../domain/messages/index.ts'
import { namespaces, resources } from './resources.ts'

const STORAGE_KEY = 'promptfolio.lang'

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

export function currentLanguage(): Locale {
  return isLocale(i18n.resolvedLanguage) ? i18n.resolvedLanguage : defaultLocale
}

export async function setLanguage(locale: Locale) {
  try {
    localStorage.setItem(STORAGE_KEY, locale)
  } catch {
    // not persisted; the switch still applies to this tab
  }
  document.documentElement.lang = locale
  await i18n.changeLanguage(locale)
}

/** Translates a message key shared with the server (validation, errors). */
export function message(key: MessageKey, params?: MessageParams): string {
  return translate(currentLanguage(), key, params)
}

export function initI18n() {
  const lng = detectLanguage()
  document.documentElement.lang = lng
  void i18n.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: defaultLocale,
    supportedLngs: ['en', 'de'],
    defaultNS: 'common',
    ns: namespaces,
    interpolation: { escapeValue: false, prefix: '{{', suffix: '}}' },
    returnNull: false,
    initAsync: false,
  })
  return i18n
}

export { i18n }
