// Builds what `npm start` runs when it is missing or older than its sources: the web app
// (dist/web) and the server bundle (dist/server). Nothing is rebuilt on a plain restart. Starts at
// the same moment take turns (build-lock.mjs): the later one finds the build fresh.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { withBuildLock } from './build-lock.mjs'

const root = path.resolve(import.meta.dirname, '..')

function newestMtime(target) {
  const full = path.join(root, target)
  if (!existsSync(full)) return 0
  const stat = statSync(full)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(target, entry)))
  return newest
}

const targets = [
  {
    name: 'web app',
    marker: 'dist/web/index.html',
    sources: ['src/web', 'src/domain', 'public', 'vite.config.ts', 'package-lock.json'],
    command: [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
  },
  {
    name: 'server',
    marker: 'dist/server/main.mjs',
    sources: ['src/server', 'src/domain', 'scripts/build-server.mjs', 'package-lock.json'],
    command: [path.join(root, 'scripts/build-server.mjs')],
  },
]

function staleTargets() {
  return targets.filter((target) => {
    const marker = path.join(root, target.marker)
    const builtAt = existsSync(marker) ? statSync(marker).mtimeMs : 0
    target.builtAt = builtAt
    return builtAt === 0 || target.sources.some((source) => newestMtime(source) > builtAt)
  })
}

if (staleTargets().length > 0) {
  await withBuildLock(
    path.join(root, 'dist', '.build-lock'),
    () => {
      for (const target of staleTargets()) {
        console.log(
          target.builtAt === 0
            ? `Building the ${target.name}…`
            : `Sources changed; rebuilding the ${target.name}…`,
        )
        execFileSync(process.execPath, target.command, { cwd: root, stdio: 'inherit' })
      }
    },
    { onWait: () => console.log('Another start is building the app; waiting for it…') },
  )
}
