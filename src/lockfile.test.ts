import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

interface LockEntry {
  optionalDependencies?: Record<string, string>
}

// The app's lockfile, and those of the contract tests' own folders (installed with `npm ci` too).
describe.each(['', 'contract/promptfoo/', 'contract/langfuse-openapi/'])('%spackage-lock.json', (folder) => {
  it('lists every optional platform package, so `npm ci` accepts it (run scripts/fix-lockfile.mjs)', () => {
    const lock = JSON.parse(
      readFileSync(new URL(`../${folder}package-lock.json`, import.meta.url), 'utf8'),
    ) as {
      packages: Record<string, LockEntry>
    }
    const missing: string[] = []
    for (const [location, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = `${location ? `${location}/` : ''}node_modules/${name}`
        if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) missing.push(name)
      }
    }
    expect(missing).toEqual([])
  })
})
