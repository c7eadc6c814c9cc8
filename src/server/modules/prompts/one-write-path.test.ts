import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Prompt versions are written and prompts deleted in one place (`writes.ts`), which applies every
 * rule once; a second `insert(promptVersions)` or `delete(prompts)` would be a door that restates
 * them, or forgets one. Tests and their fixtures build data directly and are not counted.
 */
const server = path.resolve(import.meta.dirname, '../..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(file)
    return entry.name.endsWith('.ts') && !/\.test\.ts$|test-fixtures\.ts$/.test(entry.name) ? [file] : []
  })
}

const filesContaining = (needle: RegExp) =>
  sourceFiles(server)
    .filter((file) => needle.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(server, file))

describe('the prompt write path', () => {
  it('is the only place in src/server that inserts prompt versions', () => {
    expect(filesContaining(/\binsert\(promptVersions\)/)).toEqual(['modules/prompts/writes.ts'])
  })

  it('is the only place in src/server that deletes prompts', () => {
    expect(filesContaining(/\bdelete\(prompts\)/)).toEqual(['modules/prompts/writes.ts'])
  })
})
