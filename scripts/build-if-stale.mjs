// Builds the web app when dist/web is missing or older than any of its sources, so `npm start`
// always serves what the checkout contains without rebuilding on every start.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const marker = path.join(root, 'dist/web/index.html')
const sources = ['src/web', 'src/domain', 'public', 'vite.config.ts', 'package-lock.json']

function newestMtime(target) {
  const full = path.join(root, target)
  if (!existsSync(full)) return 0
  const stat = statSync(full)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(target, entry)))
  return newest
}

const builtAt = existsSync(marker) ? statSync(marker).mtimeMs : 0
if (builtAt === 0 || sources.some((source) => newestMtime(source) > builtAt)) {
  console.log(builtAt === 0 ? 'Building the web app…' : 'Sources changed; rebuilding the web app…')
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
}
