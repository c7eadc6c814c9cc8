import { detectLanguage } from '../i18n/language.ts'
import { startFirstReads } from '../lib/first-reads.ts'
import { type FirstScreen, firstReads, firstScreenOf, sessionRead } from './first-screen.ts'

/**
 * The page's first script (a classic one, built by vite.config.ts, which fills in the files):
 * starts the first reads of this address and the texts every page waits for, and once the session
 * answers that someone is signed in, asks for the code of a known screen, while the start-up code
 * is still on its way. Without it the
 * screen's files were asked for only once the start-up code and the signed-in route table had
 * arrived and run, and its data once its code had (decision 0269). What fails here costs the page
 * nothing but this head start: the app asks for all of it itself.
 */
declare const FIRST_SCREEN_FILES: {
  /** The route table's and the shell's files, for every screen below. */
  signedIn: string[]
  screens: Record<FirstScreen, string[]>
  /** The texts every page waits for before it renders, by language. */
  startTexts: Record<string, string[]>
  /** The signed-in screens' texts, by language. */
  texts: Record<string, string[]>
}

function preload(files: readonly string[]) {
  for (const file of files) {
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    // As Vite's own preloads: the module map then finds these files under their address.
    link.crossOrigin = ''
    link.href = file
    document.head.append(link)
  }
}

try {
  const { pathname, search } = window.location
  const language = detectLanguage()
  const reads = startFirstReads(firstReads(pathname, search), language)
  preload(FIRST_SCREEN_FILES.startTexts[language] ?? [])
  const screen = firstScreenOf(pathname)
  if (screen) {
    // A copy of the answer: the API client reads the response itself.
    reads[sessionRead]
      ?.then((response) => (response.ok ? response.clone().json() : null))
      .then((body: { user?: unknown } | null) => {
        if (!body?.user) return
        preload([
          ...FIRST_SCREEN_FILES.screens[screen],
          ...FIRST_SCREEN_FILES.signedIn,
          ...(FIRST_SCREEN_FILES.texts[language] ?? []),
        ])
      })
      .catch(() => {})
  }
} catch {
  // The app asks for all of it itself.
}
