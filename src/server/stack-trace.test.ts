import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildSync } from 'esbuild'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createLogger } from './log.ts'
import { sourceMappedStack } from './stack-trace.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'pf-stack-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * A module built as scripts/build-server.mjs builds the server (whitespace gone, a linked map
 * without sources), and a stack as Node writes it without source maps for its `new Error`: the
 * test runner maps the stacks of what it imports itself, so the stack is written here.
 */
function built(name: string, source: string, map = true) {
  const entry = path.join(dir, `${name}.ts`)
  writeFileSync(entry, source)
  const outfile = path.join(dir, 'out', `${name}.mjs`)
  buildSync({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    sourcemap: map ? 'linked' : false,
    sourcesContent: false,
    minifyWhitespace: true,
    logLevel: 'silent',
  })
  const lines = readFileSync(outfile, 'utf8').split('\n')
  const line = lines.findIndex((text) => text.includes('new Error'))
  const column = lines[line]!.indexOf('new Error')
  const stack = [
    'Error: failed: no',
    `    at fail (${pathToFileURL(outfile).href}:${line + 1}:${column + 1})`,
    `    at caller (node:internal/modules/run_main:1:2)`,
  ].join('\n')
  return { entry, outfile, stack }
}

const FAILING = [
  'export function fail(): never {',
  '  const reason: string = "no"',
  "  throw new Error('failed: ' + reason)",
  '}',
  '',
].join('\n')

describe('stack traces of the bundled server', () => {
  it("name the TypeScript source's path, line and column instead of the bundle's", () => {
    const { entry, outfile, stack } = built('failing', FAILING)
    const mapped = sourceMappedStack(stack)
    expect(mapped).toContain(`at fail (${entry}:3:9)`)
    expect(mapped).not.toContain(outfile)
    // Positions outside the bundle are left as they are.
    expect(mapped).toContain('(node:internal/modules/run_main:1:2)')
  })

  it('leave a stack alone where the file has no map or an unreadable one', () => {
    const { stack } = built('unmapped', FAILING, false)
    expect(sourceMappedStack(stack)).toBe(stack)
    const broken = built('broken', FAILING)
    writeFileSync(`${broken.outfile}.map`, '{ not json')
    // The map was not read before: this is the first stack naming the file.
    expect(sourceMappedStack(broken.stack)).toBe(broken.stack)
  })

  it('are mapped in the log', () => {
    const { entry, stack } = built('logged', FAILING)
    const written: string[] = []
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk))
      return true
    })
    try {
      createLogger('info').error('it failed', { err: Object.assign(new Error('failed: no'), { stack }) })
    } finally {
      stderr.mockRestore()
    }
    expect(written).toHaveLength(1)
    expect(JSON.parse(written[0]!).err.stack).toContain(`at fail (${entry}:3:9)`)
  })
})
