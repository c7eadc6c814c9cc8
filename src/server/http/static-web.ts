import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
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
interface Asset {
  body: Uint8Array
  gzip?: Uint8Array
  br?: Uint8Array
  type: string
  cacheControl: string
}

/**
 * Serves the built single-page app from memory: files under /assets/ carry a content hash and are
 * cached for a year; everything else (index.html for every client route) must be revalidated.
 * The build writes each compressible file's brotli and gzip variant beside it (`.br`, `.gz`, see
 * scripts/precompress-web.mjs); compressing at start-up instead cost seconds of CPU and left about
 * 50 MB of the compressors' memory behind. A file without variants goes out as it is.
 */
export function serveWebApp(distDir: string): MiddlewareHandler {
  const assets = loadAssets(distDir)
  const index = assets.get('/index.html')
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const asset = assets.get(c.req.path) ?? (c.req.path.startsWith('/assets/') ? undefined : index)
    if (!asset) {
      if (!index)
        return c.text('The web app is not built. Run `npm run build`, or start with `npm start`.', 503)
      return c.text('Not found', 404)
    }
    return send(c, asset)
  }
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

function loadAssets(distDir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>()
  if (!existsSync(distDir)) return assets
  const variant = (file: string) => (existsSync(file) ? readFileSync(file) : undefined)
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name)
      if (statSync(file).isDirectory()) {
        walk(file)
        continue
      }
      const ext = path.extname(name)
      if (ext === '.br' || ext === '.gz') continue
      const urlPath = `/${path.relative(distDir, file).split(path.sep).join('/')}`
      assets.set(urlPath, {
        body: readFileSync(file),
        br: variant(`${file}.br`),
        gzip: variant(`${file}.gz`),
        type: contentTypes[ext] ?? 'application/octet-stream',
        cacheControl: urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      })
    }
  }
  walk(distDir)
  return assets
}
