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
 * The catalogs load when first needed, of the active language only: the UI's per namespace, the
 * messages shared with the server (validation, errors; `src/domain/messages/<language>/<domain>.ts`)
 * in two sets, see `sharedSetOf`. How they are bundled (`texts` in vite.config.ts): the sign-in
 * pages' texts of a language in one file, the legal pages' in another, the rest in a third.
 */
const uiCatalogs = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { import: 'default' })
const sharedCatalogs = import.meta.glob<Record<string, Record<string, string>>>(
  '../../domain/messages/*/*.ts',
)

/** The namespaces every page needs: the app's frame, loading and error screens. */
const baseNamespaces: Namespace[] = ['common', 'shell']

/**
 * The shared messages come in two sets: `base`, what every page may show (errors, and the sign-in
 * pages' validation and answers: the domains `common` and `auth`), loaded at start-up; and `all`,
 * which a page asks for with any namespace but the sign-in and legal pages' (the shell, the
 * invitation page).
 */
type SharedSet = 'base' | 'all'
const baseSharedDomains = ['common', 'auth']
const baseSharedOnly = new Set<string>([...baseNamespaces, 'auth', 'pages'])
const sharedSetOf = (namespaces: readonly Namespace[]): SharedSet =>
  namespaces.every((namespace) => baseSharedOnly.has(namespace)) ? 'base' : 'all'

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

/** The messages shared with the server, of the languages and sets loaded so far. */
const shared: Partial<Record<Locale, Record<string, string>>> = {}
const sharedLoaded = new Map<`${Locale}:${SharedSet}`, Promise<void>>()
/** The set the pages shown so far needed; a switch of language loads it for the new one. */
let sharedSet: SharedSet = 'base'

function loadShared(locale: Locale, set: SharedSet): Promise<void> {
  const key = `${locale}:${set}` as const
  let loading = sharedLoaded.get(key)
  if (!loading) {
    const prefix = `../../domain/messages/${locale}/`
    const files = Object.keys(sharedCatalogs).filter(
      (file) =>
        file.startsWith(prefix) &&
        (set === 'all' || baseSharedDomains.includes(file.slice(prefix.length, -'.ts'.length))),
    )
    loading = Promise.all(files.map((file) => sharedCatalogs[file]!())).then((modules) => {
      shared[locale] = Object.assign(shared[locale] ?? {}, ...modules.flatMap(Object.values))
    })
    // A failed download may be tried again.
    loading.catch(() => sharedLoaded.delete(key))
    sharedLoaded.set(key, loading)
  }
  if (set === 'all') sharedSet = 'all'
  return loading
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
  await loadShared(locale, sharedSet)
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
  const messages = sharedSetOf(namespaces) === 'all' ? loadShared(language, 'all') : undefined
  await initialized
  await Promise.all([i18n.loadNamespaces([...namespaces]), messages])
}

/**
 * Starts i18next with the active language's base namespaces and shared messages; resolves once
 * they have arrived (the app renders then). `namespaces` are loaded alongside (the first page's).
 */
export async function initI18n(namespaces: readonly Namespace[] = []): Promise<typeof i18n> {
  const lng = detectLanguage()
  document.documentElement.lang = lng
  initialized = Promise.all([
    loadShared(lng, 'base'),
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
