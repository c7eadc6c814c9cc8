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

export default defineConfig({
  root: 'src/web',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), precompress()],
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
    modulePreload: { polyfill: false },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 3000}`, changeOrigin: false } },
  },
})
