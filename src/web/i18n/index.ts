import i18n, { type BackendModule } from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { MessageKey } from '../../domain/messages/index.ts'
import {
  defaultLocale,
  interpolate,
  isLocale,
  type Locale,
  type MessageParams,
} from '../../domain/messages/locales.ts'
import type { Resources } from './resources.ts'

const STORAGE_KEY = 'promptfolio.lang'

export type Namespace = keyof Resources

/**
 * Every catalog is a chunk of its own, loaded when first needed: a page downloads the texts of
 * its language and of its namespaces only (the sign-in pages: common, shell, auth).
 */
const uiCatalogs = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { import: 'default' })
const sharedCatalogs: Record<Locale, () => Promise<Record<MessageKey, string>>> = {
  en: async () => (await import('../../domain/messages/en.ts')).en,
  de: async () => (await import('../../domain/messages/de.ts')).de,
}

/** The namespaces every page needs: the app's frame, loading and error screens. */
const baseNamespaces: Namespace[] = ['common', 'shell']
/** Every UI namespace (the file names under ./locales/en). */
export const allNamespaces = Object.keys(uiCatalogs)
  .filter((file) => file.startsWith('./locales/en/'))
  .map((file) => file.slice('./locales/en/'.length, -'.json'.length)) as Namespace[]

const catalogBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = uiCatalogs[`./locales/${language}/${namespace}.json`]
    if (!load) return callback(new Error(`no catalog ${language}/${namespace}`), false)
    load().then(
      (data) => callback(null, data),
      (error: Error) => callback(error, false),
    )
  },
}

/** The messages shared with the server (validation, errors), of the languages loaded so far. */
const shared: Partial<Record<Locale, Record<string, string>>> = {}

async function loadShared(locale: Locale): Promise<void> {
  shared[locale] ??= await sharedCatalogs[locale]()
}

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

/** Switches the language once its catalogs (the namespaces loaded so far) have arrived. */
export async function setLanguage(locale: Locale) {
  try {
    localStorage.setItem(STORAGE_KEY, locale)
  } catch {
    // not persisted; the switch still applies to this tab
  }
  await loadShared(locale)
  document.documentElement.lang = locale
  await i18n.changeLanguage(locale)
}

/** Whether `value` is a key of the shared messages (client-side validation answers keys). */
export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && value in (shared[currentLanguage()] ?? {})
}

/** Translates a message key shared with the server (validation, errors). */
export function message(key: MessageKey, params?: MessageParams): string {
  return interpolate(shared[currentLanguage()]?.[key] ?? key, params)
}

let initialized: Promise<unknown> | undefined

/** Loads the texts a page needs before it shows (the router asks beside the page's code). */
export async function loadNamespaces(namespaces: readonly Namespace[]): Promise<void> {
  // Their files start downloading at once, beside the base catalogs; i18next takes them after init.
  const language = detectLanguage()
  for (const namespace of namespaces) void uiCatalogs[`./locales/${language}/${namespace}.json`]?.()
  await initialized
  await i18n.loadNamespaces([...namespaces])
}

/**
 * Starts i18next with the active language's base namespaces and shared messages; resolves once
 * they have arrived (the app renders then). `namespaces` are loaded alongside (the first page's).
 */
export async function initI18n(namespaces: readonly Namespace[] = []): Promise<typeof i18n> {
  const lng = detectLanguage()
  document.documentElement.lang = lng
  initialized = Promise.all([
    loadShared(lng),
    i18n
      .use(catalogBackend)
      .use(initReactI18next)
      .init({
        lng,
        fallbackLng: false,
        supportedLngs: ['en', 'de'],
        defaultNS: 'common',
        ns: [...baseNamespaces, ...namespaces],
        interpolation: { escapeValue: false, prefix: '{{', suffix: '}}' },
        returnNull: false,
      }),
  ])
  await initialized
  return i18n
}

export { i18n }
