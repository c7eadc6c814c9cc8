import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Context, MiddlewareHandler } from 'hono'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
}
const compressible = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt', '.webmanifest'])

interface Asset {
  body: Uint8Array
  gzip?: Uint8Array
  br?: Uint8Array
  type: string
  cacheControl: string
}

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

export interface WebApp {
  handler: MiddlewareHandler
  /** Settles when every compressible file has its brotli and gzip variant. */
  compressed: Promise<void>
}

/**
 * Serves the built single-page app from memory: files under /assets/ carry a content hash and are
 * cached for a year; everything else (index.html for every client route) must be revalidated.
 * Compressed variants are made once, off the main thread after start-up (maximum brotli takes
 * seconds for the whole app, which would otherwise delay the first answer); until a file's
 * variants are ready it goes out uncompressed.
 */
export function serveWebApp(distDir: string): WebApp {
  const assets = loadAssets(distDir)
  const index = assets.get('/index.html')
  // A file that fails to compress is simply served as it is.
  const compressed = Promise.all([...assets.values()].map((asset) => compress(asset).catch(() => {}))).then(
    () => undefined,
  )
  const handler: MiddlewareHandler = async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const asset = assets.get(c.req.path) ?? (c.req.path.startsWith('/assets/') ? undefined : index)
    if (!asset) {
      if (!index)
        return c.text('The web app is not built. Run `npm run build`, or start with `npm start`.', 503)
      return c.text('Not found', 404)
    }
    return send(c, asset)
  }
  return { handler, compressed }
}

async function compress(asset: Asset & { compressible: boolean }): Promise<void> {
  if (!asset.compressible) return
  const [br, gzip] = await Promise.all([
    brotli(asset.body, { params: { [constants.BROTLI_PARAM_SIZE_HINT]: asset.body.length } }),
    gzipped(asset.body, { level: 9 }),
  ])
  asset.br = br
  asset.gzip = gzip
}

function send(c: Context, asset: Asset): Response {
  const accepts = c.req.header('accept-encoding') ?? ''
  const headers: Record<string, string> = {
    'Content-Type': asset.type,
    'Cache-Control': asset.cacheControl,
    Vary: 'Accept-Encoding',
  }
  let body = asset.body
  if (asset.br && /\bbr\b/.test(accepts)) {
    body = asset.br
    headers['Content-Encoding'] = 'br'
  } else if (asset.gzip && /\bgzip\b/.test(accepts)) {
    body = asset.gzip
    headers['Content-Encoding'] = 'gzip'
  }
  if (c.req.method === 'HEAD') return c.body(null, 200, headers)
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers)
}

function loadAssets(distDir: string): Map<string, Asset & { compressible: boolean }> {
  const assets = new Map<string, Asset & { compressible: boolean }>()
  if (!existsSync(distDir)) return assets
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name)
      if (statSync(file).isDirectory()) {
        walk(file)
        continue
      }
      const urlPath = `/${path.relative(distDir, file).split(path.sep).join('/')}`
      const ext = path.extname(name)
      const body = readFileSync(file)
      assets.set(urlPath, {
        body,
        type: contentTypes[ext] ?? 'application/octet-stream',
        cacheControl: urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        compressible: compressible.has(ext) && body.length > 512,
      })
    }
  }
  walk(distDir)
  return assets
}
