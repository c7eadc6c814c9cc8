import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import type { OutputBundle } from 'rolldown'
import { defineConfig, type Plugin } from 'vite'
import { precompressWeb } from './scripts/precompress-web.mjs'

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

const FEATURE_INDEX = /[\\/]src[\\/]web[\\/]features[\\/][^\\/]+[\\/]index\.ts$/

export default defineConfig({
  root: 'src/web',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), reactRouterProduction(), rememberBundle(), precompress()],
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
