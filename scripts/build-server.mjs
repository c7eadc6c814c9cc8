// Bundles the server into dist/server/main.mjs (dependencies stay in node_modules) and copies the
// SQL migrations beside it. Running the bundle instead of TypeScript through tsx starts faster and
// needs about a third less memory.
import { cpSync, rmSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'

const root = path.resolve(import.meta.dirname, '..')
const outDir = path.join(root, 'dist/server')
rmSync(outDir, { recursive: true, force: true })
await build({
  entryPoints: [path.join(root, 'src/server/main.ts')],
  outfile: path.join(outDir, 'main.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
})
// The bundle sits where src/server/db/migrate.ts expects './migrations/' relative to itself.
cpSync(path.join(root, 'src/server/db/migrations'), path.join(outDir, 'migrations'), { recursive: true })
