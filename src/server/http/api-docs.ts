import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { type Context, Hono } from 'hono'
import { AppError } from '../../domain/errors.ts'
import type { AppEnv } from './env.ts'

/**
 * `/api/docs`: the OpenAPI document (`/api/v1/openapi.json`) rendered by Swagger UI, served from
 * the swagger-ui-dist package. Our own initializer is a file, not an inline script, so the page
 * keeps the app's Content-Security-Policy.
 */
const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Promptfolio API</title>
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`

const initializer = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false,
})
`

interface Asset {
  type: string
  body: Buffer
  gzip: Buffer
}

function asset(type: string, body: string | Buffer): Asset {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body
  return { type, body: bytes, gzip: gzipSync(bytes) }
}

export function apiDocsRoutes() {
  const distDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  // Read and compressed on first use: most processes never serve the docs.
  let assets: Record<string, Asset> | undefined
  const load = () =>
    (assets ??= {
      '': asset('text/html; charset=utf-8', page),
      'init.js': asset('text/javascript; charset=utf-8', initializer),
      'swagger-ui.css': asset('text/css; charset=utf-8', readFileSync(path.join(distDir, 'swagger-ui.css'))),
      'swagger-ui-bundle.js': asset(
        'text/javascript; charset=utf-8',
        readFileSync(path.join(distDir, 'swagger-ui-bundle.js')),
      ),
    })
  const serve = (c: Context<AppEnv>, file: string) => {
    const found = load()[file]
    if (!found) throw new AppError('not_found', 'error.routeNotFound')
    const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')
    c.header('Content-Type', found.type)
    c.header('Cache-Control', 'public, max-age=3600')
    c.header('Vary', 'Accept-Encoding')
    if (gzip) c.header('Content-Encoding', 'gzip')
    return c.body(new Uint8Array(gzip ? found.gzip : found.body))
  }
  return new Hono<AppEnv>().get('/', (c) => serve(c, '')).get('/:file', (c) => serve(c, c.req.param('file')))
}
