// Writes a brotli (`.br`) and a gzip (`.gz`) variant beside every compressible file of the built
// web app, which the server loads and sends to browsers that accept them (src/server/http/static-web.ts).
// Done once at build time: at start-up it cost seconds of CPU and left ~50 MB of memory behind.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** What browsers gain from compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt', '.webmanifest'])
/** Below this, the headers outweigh the saving. */
const MIN_BYTES = 512

export function precompressWeb(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) {
      precompressWeb(file)
      continue
    }
    if (!COMPRESSIBLE.has(path.extname(name))) continue
    const body = readFileSync(file)
    if (body.length <= MIN_BYTES) continue
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    )
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }))
  }
}
