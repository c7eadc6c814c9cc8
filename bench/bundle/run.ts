import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import type { ConnectionPlan } from '../lib/connections.ts'
import { startServer, stopServer } from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { table } from '../lib/stats.ts'

const root = path.resolve(import.meta.dirname, '../..')
/** The goal: a sign-in route downloads at most this much gzipped JavaScript. */
const GOAL_GZIP_BYTES = 150 * 1024
const ROUTES = [
  '/login-password',
  '/login',
  '/signup-password',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/direct-reset-password',
  '/temp-reset',
  '/auth-verification',
]

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). None: the server runs on PGlite.
 */
export const bundleConnections: ConnectionPlan = { databaseUrl: null, holds: {} }

/**
 * The JavaScript a first visit to each sign-in route downloads, as Chromium loads
 * it from the built app: raw, gzip (level 9) and brotli (the encoding the server sends).
 */
export async function runBundleBenchmark(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pf-bench-bundle-'))
  const server = await startServer({ DATA_DIR: dataDir })
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  })
  const results: { route: string; files: number; raw: number; gzip: number; brotli: number }[] = []
  try {
    for (const route of ROUTES) {
      const page = await browser.newPage()
      const scripts = new Set<string>()
      page.on('response', (res) => {
        const { pathname } = new URL(res.url())
        if (pathname.endsWith('.js')) scripts.add(pathname)
      })
      await page.goto(`${server.base}${route}`, { waitUntil: 'networkidle' })
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      await page.close()
      const sizes = [...scripts].map((file) => {
        const body = readFileSync(path.join(root, 'dist/web', file))
        return {
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
        }
      })
      const sum = (key: 'raw' | 'gzip' | 'brotli') => sizes.reduce((total, size) => total + size[key], 0)
      results.push({ route, files: scripts.size, raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli') })
    }
  } finally {
    await browser.close()
    await stopServer(server)
    rmSync(dataDir, { recursive: true, force: true })
  }
  const kib = (bytes: number) => (bytes / 1024).toFixed(1)
  const rows = results.map((r) => [r.route, String(r.files), kib(r.raw), kib(r.gzip), kib(r.brotli)])
  console.log(`\n${table(['route', 'JS files', 'raw KiB', 'gzip KiB', 'brotli KiB'], rows)}\n`)
  for (const r of results.filter((result) => result.gzip > GOAL_GZIP_BYTES)) {
    console.log(`!!! ${r.route}: ${kib(r.gzip)} KiB gzip, over the ${kib(GOAL_GZIP_BYTES)} KiB goal`)
  }
  saveResults('bundle', {
    goalGzipKib: GOAL_GZIP_BYTES / 1024,
    results: results.map((r) => ({
      route: r.route,
      files: r.files,
      rawKib: r.raw / 1024,
      gzipKib: r.gzip / 1024,
      brotliKib: r.brotli / 1024,
      overGoal: r.gzip > GOAL_GZIP_BYTES,
    })),
  })
}
