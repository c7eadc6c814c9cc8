import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLogger } from './log.ts'

// What the logger hands the stack mapper (its own test, stack-trace.test.ts, maps built files).
const mapped = vi.hoisted(() => [] as { stack: string; message: string }[])
vi.mock('./stack-trace.ts', () => ({
  sourceMappedStack: (stack: string, message: string) => {
    mapped.push({ stack, message })
    return stack.replace('/dist/server/main.mjs:1:2', '/src/server/x.ts:3:4')
  },
}))

afterEach(() => vi.restoreAllMocks())

describe("the logger's stacks", () => {
  it('are mapped to the sources, after the query parameters are gone, past the message', () => {
    const written: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk))
      return true
    })
    const failed = new Error('Failed query: select 1\nparams: token-of-someone')
    failed.stack = `Error: ${failed.message}\n    at run (file:///app/dist/server/main.mjs:1:2)`
    createLogger('info').error('it failed', { err: failed })
    expect(mapped).toEqual([
      {
        stack:
          'Error: Failed query: select 1\nparams: [redacted]\n    at run (file:///app/dist/server/main.mjs:1:2)',
        message: 'Failed query: select 1\nparams: [redacted]',
      },
    ])
    expect(JSON.parse(written[0]!).err.stack).toContain('at run (file:///app/src/server/x.ts:3:4)')
  })
})
