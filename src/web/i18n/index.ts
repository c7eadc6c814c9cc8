import i18n, { type BackendModule } from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { MessageKey } from '../../domain/messages/index.ts'
import { interpolate, isLocale, type Locale, type MessageParams } from '../../domain/messages/locales.ts'
import { detectLanguage, STORAGE_KEY } from './language.ts'
import type { Resources } from './resources.ts'

export type Namespace = keyof Resources

/**
 * The texts come in three files per language (`./bundles/<language>-<bundle>.ts`), loaded when
 * first needed, of the active language only: `start`, what every page shows, the sign-in pages
 * included (the UI namespaces common, shell and auth, and the messages shared with the server
 * about errors and sign-in: src/domain/messages/<language>/{common,auth}.ts); `pages`, the legal
 * and error pages' namespace; `app`, every other namespace and shared message, for the shell.
 */
type Bundle = 'start' | 'pages' | 'app'
interface TextBundle {
  /** The UI catalogs, by file. */
  ui: Record<string, Record<string, unknown>>
  /** The shared messages, by file (each file's one export). */
  shared?: Record<string, Record<string, Record<string, string>>>
}
const bundleFiles = import.meta.glob<TextBundle>('./bundles/*.ts')
const bundles: Bundle[] = ['start', 'pages', 'app']
const startNamespaces: readonly string[] = ['common', 'shell', 'auth']

export function bundleOf(namespace: string): Bundle {
  if (startNamespaces.includes(namespace)) return 'start'
  return namespace === 'pages' ? 'pages' : 'app'
}

function loadBundle(language: Locale, bundle: Bundle): Promise<TextBundle> {
  return bundleFiles[`./bundles/${language}-${bundle}.ts`]!()
}

/** A bundle's UI catalogs by namespace (the file's name). */
function catalogsOf(bundle: TextBundle): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(bundle.ui).map(([file, catalog]) => [
      file.slice(file.lastIndexOf('/') + 1, -'.json'.length),
      catalog,
    ]),
  )
}

/** The namespaces every page needs: the app's frame, loading and error screens. */
const baseNamespaces: Namespace[] = ['common', 'shell']

const catalogBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    if (!isLocale(language)) return callback(new Error(`no texts in ${language}`), false)
    loadBundle(language, bundleOf(namespace)).then(
      (bundle) => {
        const catalog = catalogsOf(bundle)[namespace]
        if (catalog) callback(null, catalog)
        else callback(new Error(`no catalog ${language}/${namespace}`), false)
      },
      (error: Error) => callback(error, false),
    )
  },
}

/**
 * The messages shared with the server, of the languages loaded so far: those in the `start`
 * bundle at start-up, the `app` bundle's with the first page that loads that bundle anyway.
 */
const shared: Partial<Record<Locale, Record<string, string>>> = {}
/** The bundles whose shared messages the pages shown so far needed; a switch of language loads them in the new one. */
const sharedBundles = new Set<Bundle>(['start'])

async function loadShared(locale: Locale, wanted: Iterable<Bundle>): Promise<void> {
  const loaded = await Promise.all([...wanted].map((bundle) => loadBundle(locale, bundle)))
  const messages = loaded.flatMap((bundle) => Object.values(bundle.shared ?? {}).flatMap(Object.values))
  shared[locale] = Object.assign(shared[locale] ?? {}, ...messages)
}

/** The active language; before i18next has started, the one it will start in. */
export function currentLanguage(): Locale {
  return isLocale(i18n.resolvedLanguage) ? i18n.resolvedLanguage : detectLanguage()
}

/** Switches the language once its catalogs (the namespaces loaded so far) have arrived. */
export async function setLanguage(locale: Locale) {
  try {
    localStorage.setItem(STORAGE_KEY, locale)
  } catch {
    // not persisted; the switch still applies to this tab
  }
  await loadShared(locale, sharedBundles)
  document.documentElement.lang = locale
  await i18n.changeLanguage(locale)
}

/** Whether `value` is a key of the shared messages (client-side validation answers keys). */
export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && value in (shared[currentLanguage()] ?? {})
}

/** Translates a message key shared with the server (validation, errors). */
export function message(key: MessageKey, params?: MessageParams): string {
  return interpolate(shared[currentLanguage()]?.[key] ?? key, params, currentLanguage())
}

let initialized: Promise<unknown> | undefined

/**
 * Loads the texts a page needs before it shows (the router asks beside the page's code): the
 * namespaces named, or `all` of the active language (the shell, so signed-in screens never wait).
 */
export async function loadNamespaces(namespaces: readonly Namespace[] | 'all'): Promise<void> {
  const language = detectLanguage()
  const wanted = new Set(namespaces === 'all' ? bundles : namespaces.map(bundleOf))
  // Their files start downloading at once, beside the base catalogs; i18next takes them after init.
  const loading = Promise.all([...wanted].map((bundle) => loadBundle(language, bundle)))
  // A failed download is reported by i18next, whose backend asks for the same files.
  loading.catch(() => {})
  let messages: Promise<void> | undefined
  if (wanted.has('app')) {
    sharedBundles.add('app')
    messages = loadShared(language, ['app'])
  }
  await initialized
  const names =
    namespaces === 'all' ? (await loading).flatMap((bundle) => Object.keys(catalogsOf(bundle))) : namespaces
  await Promise.all([i18n.loadNamespaces([...names]), messages])
}

/**
 * Starts i18next with the active language's base namespaces and shared messages; resolves once
 * they have arrived (the app renders then). `namespaces` are loaded alongside (the first page's).
 */
export async function initI18n(namespaces: readonly Namespace[] = []): Promise<typeof i18n> {
  const lng = detectLanguage()
  document.documentElement.lang = lng
  initialized = Promise.all([
    loadShared(lng, ['start']),
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
