import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

// scripts/check-web-features.mjs, which `npm run lint` runs: the web features' index.ts and lazy.ts.
interface WebImport {
  file: string
  target: string
  dynamic: boolean
}
const script = pathToFileURL(path.resolve(import.meta.dirname, '../scripts/check-web-features.mjs')).href
const { entryProblems, importsOf, problemsOf, webImports } = (await import(script)) as {
  entryProblems: (root: string) => string[]
  importsOf: (root: string, file: string, text: string) => WebImport[]
  problemsOf: (imports: WebImport[]) => string[]
  webImports: (root: string) => WebImport[]
}

const web = path.resolve(import.meta.dirname, 'web')
/** The problems of one file's source, as the script reads it from src/web. */
const problemsIn = (file: string, text: string) => problemsOf(importsOf(web, file, text))

describe('the web features check', () => {
  it('passes the web app as it is', () => {
    expect([...entryProblems(web), ...problemsOf(webImports(web))]).toEqual([])
  })

  it('refuses a route reaching past a feature’s index.ts, naming the file and the import', () => {
    expect(
      problemsIn(
        'routes/auth/login-password.tsx',
        "import { useSignIn } from '../../features/auth/session.ts'\n",
      ),
    ).toEqual([
      'routes/auth/login-password.tsx imports features/auth/session.ts: a feature is reached through its index.ts (features/auth/index.ts)',
    ])
  })

  it('passes a route, the app and a component that use a feature’s index.ts', () => {
    expect(
      problemsIn(
        'routes/auth/login-password.tsx',
        "import {\n  EmailField,\n  useSignIn,\n} from '../../features/auth/index.ts'\n",
      ),
    ).toEqual([])
    expect(problemsIn('main.tsx', "import { LoadingScreen } from './features/shell/index.ts'\n")).toEqual([])
    expect(problemsIn('components/x.tsx', "import { Button } from './ui/button.tsx'\n")).toEqual([])
  })

  it('refuses deep multi-line, type-only, bare and re-export imports alike', () => {
    expect(
      problemsIn(
        'app/x.tsx',
        [
          "import type { PickedPrompt } from '../features/conversations/prompt-picker-dialog.tsx'",
          "import {\n  Logo,\n} from '../features/shell/logo.tsx'",
          "import '../features/shell/theme.ts'",
          "export { WidgetBoundary } from '../features/dashboard/widget.tsx'",
        ].join('\n'),
      ),
    ).toEqual([
      'app/x.tsx imports features/conversations/prompt-picker-dialog.tsx: a feature is reached through its index.ts (features/conversations/index.ts)',
      'app/x.tsx imports features/shell/logo.tsx: a feature is reached through its index.ts (features/shell/index.ts)',
      'app/x.tsx imports features/dashboard/widget.tsx: a feature is reached through its index.ts (features/dashboard/index.ts)',
      'app/x.tsx imports features/shell/theme.ts: a feature is reached through its index.ts (features/shell/index.ts)',
    ])
  })

  it('refuses a feature reaching past another feature’s index.ts', () => {
    expect(
      problemsIn('features/models/playground.tsx', "import { x } from '../prompts/queries.ts'\n"),
    ).toEqual([
      'features/models/playground.tsx imports features/prompts/queries.ts: another feature is reached through its index.ts (features/prompts/index.ts)',
    ])
  })

  it('keeps imports inside a feature direct: its own files, not its index (a loop)', () => {
    expect(problemsIn('features/auth/guards.tsx', "import { useSession } from './session.ts'\n")).toEqual([])
    expect(problemsIn('features/auth/guards.tsx', "import { useSession } from './index.ts'\n")).toEqual([
      'features/auth/guards.tsx imports features/auth/index.ts: inside a feature, files import each other directly',
    ])
    // A feature's tests use it as the others do.
    expect(problemsIn('features/auth/guards.test.tsx', "import { useSession } from './index.ts'\n")).toEqual(
      [],
    )
  })

  it('loads on demand through lazy.ts only, and lazy.ts only on demand', () => {
    expect(
      problemsIn('app/routes.tsx', "lazyPage(() => import('../features/shell/lazy.ts'), 'AppShell')\n"),
    ).toEqual([])
    expect(
      problemsIn('app/routes.tsx', "lazyPage(() => import('../features/shell/app-shell.tsx'), 'AppShell')\n"),
    ).toEqual([
      "app/routes.tsx imports features/shell/app-shell.tsx with import(): a feature's code loaded on demand goes through its lazy.ts (features/shell/lazy.ts)",
    ])
    expect(problemsIn('app/routes.tsx', "import { AppShell } from '../features/shell/lazy.ts'\n")).toEqual([
      "app/routes.tsx imports features/shell/lazy.ts: a feature's lazy.ts is loaded with import() only",
    ])
  })

  describe('the doors themselves', () => {
    let root: string | undefined
    afterEach(() => {
      if (root) rmSync(root, { recursive: true, force: true })
    })
    const webWith = (files: Record<string, string>) => {
      root = mkdtempSync(path.join(tmpdir(), 'pf-web-features-'))
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
        writeFileSync(path.join(root, file), text)
      }
      return root
    }

    it('passes an index and a lazy entry that only re-export', () => {
      const dir = webWith({
        'features/mail/index.ts':
          "/** The outbox. */\nexport { useOutbox } from './outbox.ts'\nexport type { Mail } from './outbox.ts'\n",
        'features/mail/lazy.ts': "// on demand\nexport { Outbox } from './outbox-page.tsx'\n",
        'features/mail/outbox.ts': 'export const useOutbox = () => 1\n',
      })
      expect(entryProblems(dir)).toEqual([])
    })

    it('refuses a feature without an index.ts, and an index with code of its own', () => {
      const dir = webWith({
        'features/mail/outbox.ts': 'export const useOutbox = () => 1\n',
        'features/system/index.ts': "export { useHealth } from './queries.ts'\nstartPolling()\n",
      })
      expect(entryProblems(dir)).toEqual([
        'features/mail has no index.ts: what the rest of the web app uses of it',
        'features/system/index.ts holds code of its own: it only re-exports (export … from)',
      ])
    })
  })
})
