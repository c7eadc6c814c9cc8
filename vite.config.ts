import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { build as esbuild } from 'esbuild'
import type { OutputBundle, OutputChunk } from 'rolldown'
import { defineConfig, type Plugin } from 'vite'
import { precompressWeb } from './scripts/precompress-web.mjs'
import { locales } from './src/domain/messages/locales.ts'
import { firstScreens, signedInModules } from './src/web/app/first-screen.ts'

/** Each built file's brotli and gzip variant, written beside it for the server to send. */
const precompress = (): Plugin => ({
  name: 'promptfolio-precompress',
  apply: 'build',
  closeBundle: () => precompressWeb(fileURLToPath(new URL('./dist/web', import.meta.url))),
})

/**
 * React Router's production build in the built app. Its package names only its development build
 * (dist/development, with the dev-only checks and warnings), so bundlers take that one: 0.5 KiB
 * gzip of every page. The dev server and the tests keep the development build and its warnings.
 */
const reactRouterProduction = (): Plugin => {
  const productionEntry = path.join(
    path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
    'dist/production/index.mjs',
  )
  return {
    name: 'promptfolio-react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (source === 'react-router' ? productionEntry : undefined),
  }
}

/**
 * A dynamic import preloads the chunks its target needs (Vite's modulepreload), except those the
 * importing chunk has loaded already with its own static imports: Vite lists them all, so the
 * entry carried the names of react, i18next and the rest again for every lazy route.
 */
let bundle: OutputBundle = {}
const rememberBundle = (): Plugin => ({
  name: 'promptfolio-remember-bundle',
  apply: 'build',
  generateBundle(_, output) {
    bundle = output
  },
})
function loadedWith(host: string): Set<string> {
  const loaded = new Set<string>()
  const visit = (file: string) => {
    const chunk = bundle[file]
    if (loaded.has(file) || chunk?.type !== 'chunk') return
    loaded.add(file)
    for (const imported of chunk.imports) visit(imported)
  }
  visit(host)
  return loaded
}
function preloadedDependencies(_file: string, deps: string[], { hostId }: { hostId: string }): string[] {
  const loaded = loadedWith(hostId)
  return deps.filter((dep) => !loaded.has(dep))
}

const webRoot = fileURLToPath(new URL('./src/web/', import.meta.url))

/**
 * The page's first script (`src/web/app/first-screen-start.ts`, decision 0269), built after the
 * app, with the files of each first screen in it: a known screen's files (its module and what it
 * imports, the signed-in route table's and the shell's, the signed-in texts of each language)
 * less what the entry loads, which index.html preloads already; and the texts every page waits for
 * before its first render (each language's `start` bundle), which the entry asks for only once it
 * runs. index.html runs it before the
 * entry. A module of the table that is no chunk's any more fails the build.
 */
const firstScreenScript = (): Plugin => ({
  name: 'promptfolio-first-screen',
  apply: 'build',
  async writeBundle(options, output) {
    const chunks = Object.values(output).filter((file): file is OutputChunk => file.type === 'chunk')
    const chunkOf = (module: string) => {
      const id = path.join(webRoot, module)
      const chunk =
        chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id))
      if (!chunk) throw new Error(`first screen: no chunk holds src/web/${module}`)
      return chunk.fileName
    }
    const withImports = (files: string[], into = new Set<string>()) => {
      for (const file of files) {
        const chunk = output[file]
        if (into.has(file) || chunk?.type !== 'chunk') continue
        into.add(file)
        withImports(chunk.imports, into)
      }
      return into
    }
    const loadedByEntry = withImports(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName))
    const filesOf = (modules: readonly string[]) =>
      [...withImports(modules.map(chunkOf))]
        .filter((file) => !loadedByEntry.has(file))
        .map((file) => `/${file}`)
    const signedIn = filesOf(signedInModules)
    const files = {
      signedIn,
      // Less the signed-in ones: a screen's files are asked for with those.
      screens: Object.fromEntries(
        firstScreens.map((screen) => [
          screen.name,
          filesOf(screen.modules).filter((file) => !signedIn.includes(file)),
        ]),
      ),
      startTexts: Object.fromEntries(
        locales.map((locale) => [locale, filesOf([`i18n/bundles/${locale}-start.ts`])]),
      ),
      texts: Object.fromEntries(
        locales.map((locale) => [locale, filesOf([`i18n/bundles/${locale}-app.ts`])]),
      ),
    }
    const built = await esbuild({
      entryPoints: [path.join(webRoot, 'app/first-screen-start.ts')],
      bundle: true,
      format: 'iife',
      minify: true,
      target: 'es2022',
      write: false,
      define: { FIRST_SCREEN_FILES: JSON.stringify(files) },
    })
    const code = built.outputFiles[0]!.contents
    const name = `assets/${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`
    const outDir = options.dir!
    writeFileSync(path.join(outDir, name), code)
    const indexFile = path.join(outDir, 'index.html')
    const html = readFileSync(indexFile, 'utf8')
    const boot = '<script src="/boot.js"></script>'
    if (!html.includes(boot)) throw new Error('first screen: index.html has no boot script to follow')
    writeFileSync(indexFile, html.replace(boot, `${boot}\n    <script src="/${name}"></script>`))
  },
})

const FEATURE_INDEX = /[\\/]src[\\/]web[\\/]features[\\/][^\\/]+[\\/]index\.ts$/

export default defineConfig({
  root: 'src/web',
  publicDir: '../../public',
  plugins: [
    react(),
    tailwindcss(),
    reactRouterProduction(),
    rememberBundle(),
    firstScreenScript(),
    precompress(),
  ],
  resolve: {
    alias: [
      // React 19 has the hook; the shim's fallback for React 17 would only add bytes to every page.
      {
        find: /^use-sync-external-store\/shim$/,
        replacement: fileURLToPath(new URL('./src/web/lib/use-sync-external-store-shim.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // Every browser the app supports preloads modules itself.
    modulePreload: { polyfill: false, resolveDependencies: preloadedDependencies },
    rolldownOptions: {
      // The entry exports nothing; required by experimentalInlineCommonChunks below.
      preserveEntrySignatures: false,
      // A feature's index.ts only re-exports (scripts/check-web-features.mjs holds it to that): the
      // bundler may take each name from the module that defines it and leave out the others, so a
      // sign-in page that uses two names of the auth feature does not download the admin diagnostics.
      treeshake: { moduleSideEffects: (id: string) => (FEATURE_INDEX.test(id) ? false : undefined) },
      output: {
        codeSplitting: {
          // What the entry imports statically, which every page runs, in two files: the libraries
          // (which change with the dependencies, not with every change of the app) and the
          // app's own. Rolldown otherwise made one chunk of each set of lazy routes that share a
          // module (react, i18next, react-router, TanStack Query, the API client...): 15 files
          // gzipped one by one, where two compress better and repeat no module (decision 0262).
          groups: [
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'] },
            { name: 'app', tags: ['$initial'] },
          ],
          // A module two lazy routes share (an icon, a helper) would be a file of its own: a signed-in
          // first visit fetched about 125 files over six connections. Under 4 KiB it is copied into
          // each chunk that uses it instead (decision 0233).
          experimentalInlineCommonChunks: { maxSize: 4 * 1024 },
        },
        // Hashes alone name the JavaScript files: every import between chunks and the entry's
        // preload list spell the names out, 2 KiB gzip of a sign-in page (decision 0220).
        entryFileNames: 'assets/[hash].js',
        chunkFileNames: 'assets/[hash].js',
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 3000}`, changeOrigin: false } },
  },
})
