import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

// scripts/build-lock.mjs: `npm start` run twice at once builds once (scripts/build-if-stale.mjs).
const lockModule = pathToFileURL(path.resolve(import.meta.dirname, '../scripts/build-lock.mjs')).href
const { withBuildLock } = (await import(lockModule)) as {
  withBuildLock: <T>(
    lockDir: string,
    fn: () => T | Promise<T>,
    options?: { onWait?: () => void },
  ) => Promise<T>
}
const dir = mkdtempSync(path.join(tmpdir(), 'promptfolio-build-lock-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the build lock', () => {
  it('makes a second start wait while the first builds, then lets it go on', async () => {
    const lockDir = path.join(dir, 'first', '.build-lock')
    let release!: () => void
    const first = withBuildLock(lockDir, () => new Promise<void>((resolve) => (release = resolve)))
    // Another process asks for the same lock while this one holds it.
    const second = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { withBuildLock } = await import(${JSON.stringify(lockModule)})
         await withBuildLock(${JSON.stringify(lockDir)}, () => console.log('built'), { onWait: () => console.log('waiting') })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let output = ''
    const exited = new Promise<number | null>((resolve) => second.on('exit', resolve))
    await new Promise<void>((resolve) =>
      second.stdout.on('data', (chunk) => {
        output += chunk
        if (output.includes('waiting')) resolve()
      }),
    )
    expect(output).not.toContain('built')
    release()
    await first
    expect(await exited).toBe(0)
    expect(output.split('\n').filter(Boolean)).toEqual(['waiting', 'built'])
  })

  it('takes over the lock of a build that was killed', async () => {
    const lockDir = path.join(dir, 'killed', '.build-lock')
    const gone = spawnSync(process.execPath, ['-e', '']).pid
    mkdirSync(lockDir, { recursive: true })
    writeFileSync(path.join(lockDir, 'pid'), String(gone))
    let waited = false
    const result = await withBuildLock(lockDir, () => 'built', { onWait: () => (waited = true) })
    expect(result).toBe('built')
    expect(waited).toBe(false)
  })
})
