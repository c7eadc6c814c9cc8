import { describe, expect, it } from 'vitest'
import { flagsOfStartScript, startFlags } from './start-flags.mjs'

describe('the start flags', () => {
  it('are the words between node and the server in the last command', () => {
    expect(
      flagsOfStartScript('node scripts/build-if-stale.mjs && node --a --b=2  dist/server/main.mjs'),
    ).toEqual(['--a', '--b=2'])
    expect(flagsOfStartScript('node dist/server/main.mjs')).toEqual([])
  })

  it('refuse a start script of another shape, rather than start the server without them', () => {
    expect(() => flagsOfStartScript('node dist/server/main.mjs && echo started')).toThrow(/not "node/)
    expect(() => flagsOfStartScript('tsx src/server/main.ts')).toThrow(/not "node/)
    // Another command before it, a quoted value, an environment prefix: each would be misread.
    for (const script of [
      'node a.mjs; node --x dist/server/main.mjs',
      'node b.mjs || node --x dist/server/main.mjs',
      'node --title="my app" dist/server/main.mjs',
      'PORT=1 node dist/server/main.mjs',
    ]) {
      expect(() => flagsOfStartScript(script), script).toThrow(/not "node/)
    }
  })

  it("are read from this checkout's package.json", () => {
    expect(startFlags()).toContain('--max-semi-space-size=32')
    expect(startFlags()).toContain('--no-allocation-site-pretenuring')
  })
})
