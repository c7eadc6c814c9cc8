import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { precompressWeb } from './scripts/precompress-web.mjs'

/** Each built file's brotli and gzip variant, written beside it for the server to send. */
const precompress = (): Plugin => ({
  name: 'promptfolio-precompress',
  apply: 'build',
  closeBundle: () => precompressWeb(fileURLToPath(new URL('./dist/web', import.meta.url))),
})

/**
 * The text catalogs of a language (the UI's, `src/web/i18n/locales/<language>/<namespace>.json`,
 * and the messages shared with the server, `src/domain/messages/<language>/<domain>.ts`) go out in
 * three files: what every page and the sign-in pages show (`start`), the legal and error pages'
 * (`pages`), and the rest, which the signed-in shell loads (decisions 0190 and 0220).
 */
const startTexts = new Set(['common', 'shell', 'auth'])
function textsChunk(id: string): string | null {
  const match = /[\\/](?:i18n[\\/]locales|domain[\\/]messages)[\\/](en|de)[\\/]([\w-]+)\.(?:json|ts)$/.exec(
    id,
  )
  if (!match) return null
  const [, language, name = ''] = match
  return `texts-${language}-${startTexts.has(name) ? 'start' : name === 'pages' ? 'pages' : 'app'}`
}

export default defineConfig({
  root: 'src/web',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: textsChunk }] } } },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 3000}`, changeOrigin: false } },
  },
})
