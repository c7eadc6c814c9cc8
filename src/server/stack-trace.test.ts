import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildSync } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { originalPosition, sourceMappedStack } from './stack-trace.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'pf-stack-'))
/** The built files' folder, as dist/server is the server's. */
const root = path.join(dir, 'out')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * A module built as scripts/build-server.mjs builds the server (whitespace gone, a linked map
 * without sources), and a stack as Node writes it without source maps for its `new Error`: the
 * test runner maps the stacks of what it imports itself, so the stack is written here.
 */
function built(name: string, source: string, options: { map?: boolean; outDir?: string } = {}) {
  const entry = path.join(dir, `${name}.ts`)
  writeFileSync(entry, source)
  const outfile = path.join(options.outDir ?? root, `${name}.mjs`)
  buildSync({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    sourcemap: options.map === false ? false : 'linked',
    sourcesContent: false,
    minifyWhitespace: true,
    logLevel: 'silent',
  })
  const lines = readFileSync(outfile, 'utf8').split('\n')
  const line = lines.findIndex((text) => text.includes('new Error'))
  const column = line < 0 ? -1 : lines[line]!.indexOf('new Error')
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

describe('stack traces of the built server', () => {
  it("name the TypeScript source's path, line and column instead of the built file's", () => {
    const { entry, outfile, stack } = built('failing', FAILING)
    const mapped = sourceMappedStack(stack, 'failed: no', root)
    expect(mapped).toContain(`at fail (${entry}:3:9)`)
    expect(mapped).not.toContain(outfile)
    // Positions outside the built files are left as they are.
    expect(mapped).toContain('(node:internal/modules/run_main:1:2)')
  })

  it('leave a stack alone where the file has no map or an unreadable one', () => {
    const { stack } = built('unmapped', FAILING, { map: false })
    expect(sourceMappedStack(stack, 'failed: no', root)).toBe(stack)
    const broken = built('broken', FAILING)
    writeFileSync(`${broken.outfile}.map`, '{ not json')
    // The map was not read before: this is the first stack naming the file.
    expect(sourceMappedStack(broken.stack, 'failed: no', root)).toBe(broken.stack)
  })

  it('read no map outside the built files, nor a position in the message', () => {
    const elsewhere = path.join(dir, 'elsewhere')
    mkdirSync(elsewhere)
    const outside = built('outside', FAILING, { outDir: elsewhere })
    expect(sourceMappedStack(outside.stack, 'failed: no', root)).toBe(outside.stack)
    // The same file named through `..` is still outside.
    const dodged = outside.stack.replace(pathToFileURL(elsewhere).href, `${pathToFileURL(root).href}/..`)
    expect(sourceMappedStack(dodged, 'failed: no', root)).toBe(dodged)
    // A message quoting positions of a built file (a client's input, a query's parameters), on a
    // line that reads as a frame too.
    const inside = built('quoted', FAILING)
    const message = `failed for ${inside.outfile}:1:1\n    at fake (${inside.outfile}:1:1)`
    const quoted = inside.stack.replace('failed: no', message)
    const mapped = sourceMappedStack(quoted, message, root)
    expect(mapped.startsWith(`Error: ${message}\n`)).toBe(true)
    expect(mapped).toContain(`at fail (${inside.entry}:3:9)`)
  })

  it('survive a malformed file address in a frame', () => {
    const stack = 'Error: x\n    at f (file:///a%zz.mjs:1:1)\n    at g (file:///a%2fb.mjs:1:1)'
    expect(sourceMappedStack(stack, 'failed: no', root)).toBe(stack)
  })

  it('find every position where Node’s own SourceMap finds it', () => {
    const source = Array.from(
      { length: 40 },
      (_, i) =>
        `export function f${i}(a: number, b: string): string {\n  const c = a * ${i} + b.length\n  return b.repeat(c % 3) + String(c)\n}\n`,
    ).join('\n')
    const { outfile } = built('many', source)
    const payload = JSON.parse(readFileSync(`${outfile}.map`, 'utf8'))
    const node = new SourceMap(payload)
    const lines = readFileSync(outfile, 'utf8').split('\n')
    let compared = 0
    for (const [line, text] of lines.entries()) {
      for (let column = 0; column < text.length; column += 7) {
        const expected = node.findEntry(line, column)
        const actual = originalPosition(payload, line, column)
        if (!('originalSource' in expected)) continue
        expect(actual, `${line}:${column}`).toEqual({
          source: expected.originalSource,
          line: expected.originalLine + 1,
          column: expected.originalColumn + 1,
        })
        compared++
      }
    }
    expect(compared).toBeGreaterThan(100)
  })
})
