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
  /** The file and its compressed variants, read on the first request for it and kept. */
  content(): Content
  type: string
  cacheControl: string
}
interface Content {
  body: Uint8Array
  gzip?: Uint8Array
  br?: Uint8Array
}

/**
 * Serves the built single-page app from memory: files under /assets/ carry a content hash and are
 * cached for a year; everything else (index.html for every client route) must be revalidated.
 * The build writes each compressible file's brotli and gzip variant beside it (`.br`, `.gz`, see
 * scripts/precompress-web.mjs); compressing at start-up instead cost seconds of CPU and left about
 * 50 MB of the compressors' memory behind. A file without variants goes out as it is. The start
 * only lists the files; each is read when first asked for (reading all of them at start cost
 * every start about 20 ms and kept files in memory that most sessions never load).
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
  const content = asset.content()
  let body = content.body
  if (content.br && /\bbr\b/.test(accepts)) {
    body = content.br
    headers['Content-Encoding'] = 'br'
  } else if (content.gzip && /\bgzip\b/.test(accepts)) {
    body = content.gzip
    headers['Content-Encoding'] = 'gzip'
  }
  if (c.req.method === 'HEAD') return c.body(null, 200, headers)
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers)
}

function loadAssets(distDir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>()
  if (!existsSync(distDir)) return assets
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true })
    const listed = new Set(entries.map((entry) => entry.name))
    for (const entry of entries) {
      const name = entry.name
      const file = path.join(dir, name)
      // A symbolic link is followed, as before; other entries need no stat of their own.
      if (entry.isDirectory() || (entry.isSymbolicLink() && statSync(file).isDirectory())) {
        walk(file)
        continue
      }
      const ext = path.extname(name)
      if (ext === '.br' || ext === '.gz') continue
      const variant = (suffix: string) =>
        listed.has(name + suffix) ? readFileSync(file + suffix) : undefined
      let content: Content | undefined
      const urlPath = `/${path.relative(distDir, file).split(path.sep).join('/')}`
      assets.set(urlPath, {
        content: () => (content ??= { body: readFileSync(file), br: variant('.br'), gzip: variant('.gz') }),
        type: contentTypes[ext] ?? 'application/octet-stream',
        cacheControl: urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      })
    }
  }
  walk(distDir)
  return assets
}
