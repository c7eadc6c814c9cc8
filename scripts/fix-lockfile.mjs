// Run after every `npm install <package>` (in a contract folder: `node scripts/fix-lockfile.mjs contract/promptfoo`).
// This machine's registry mirror serves only this platform's native packages (e.g. Biome's and
// Tailwind's binaries for linux-x64), so npm cannot record the other platforms' optional packages
// in package-lock.json, and `npm ci` then rejects the lockfile as out of sync. This adds minimal
// entries for them (name, version, optional); npm ci skips optional packages it cannot fetch.
// `src/lockfile.test.ts` fails when an entry is missing.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const file = path.resolve(import.meta.dirname, '..', process.argv[2] ?? '.', 'package-lock.json')
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages
let added = 0
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${name}`
    if (packages[nested] || packages[`node_modules/${name}`]) continue
    packages[`node_modules/${name}`] = {
      version: range.replace(/^[\^~=]/, ''),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
    }
    added++
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`package-lock.json: ${added} optional platform entr${added === 1 ? 'y' : 'ies'} added`)
