import { describe, expect, it } from 'vitest'
import { ScopedAsyncLocalStorage } from './scoped-context.ts'

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('ScopedAsyncLocalStorage', () => {
  it('keeps the store across awaits inside a run and is disabled once the run has settled', async () => {
    const storage = new ScopedAsyncLocalStorage<string>()
    let release!: () => void
    const later = new Promise<void>((resolve) => {
      release = resolve
    })
    let afterRelease: Promise<string | undefined> | undefined
    const seen = await storage.run('request 1', async () => {
      await tick()
      // Work that outlives the run: its continuation only sees the store while the storage is on.
      afterRelease = later.then(() => storage.getStore())
      expect(storage.running).toBe(1)
      return storage.getStore()
    })
    expect(seen).toBe('request 1')
    expect(storage.running).toBe(0)
    release()
    expect(await afterRelease).toBeUndefined()
  })

  it('serves concurrent runs their own store and stays enabled until the last one settles', async () => {
    const storage = new ScopedAsyncLocalStorage<string>()
    let finishFirst!: () => void
    const firstMayEnd = new Promise<void>((resolve) => {
      finishFirst = resolve
    })
    const first = storage.run('first', async () => {
      await firstMayEnd
      return storage.getStore()
    })
    const second = await storage.run('second', async () => {
      await tick()
      return storage.getStore()
    })
    expect(second).toBe('second')
    expect(storage.running).toBe(1)
    finishFirst()
    expect(await first).toBe('first')
    expect(storage.running).toBe(0)
  })

  it('passes on a rejection or a throw, and a synchronous result, with the count back at zero', async () => {
    const storage = new ScopedAsyncLocalStorage<number>()
    await expect(
      storage.run(1, async () => {
        await tick()
        throw new Error('refused')
      }),
    ).rejects.toThrow('refused')
    expect(() =>
      storage.run(2, () => {
        throw new Error('at once')
      }),
    ).toThrow('at once')
    expect(storage.run(3, (a: number, b: number) => a + b + (storage.getStore() ?? 0), 4, 5)).toBe(12)
    expect(storage.running).toBe(0)
    expect(storage.getStore()).toBeUndefined()
  })
})
