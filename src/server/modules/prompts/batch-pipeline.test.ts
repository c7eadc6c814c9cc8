import { describe, expect, it } from 'vitest'
import { batchPipeline } from './batch-pipeline.ts'

/** A write the test finishes by hand, recording when it starts. */
function manualWrite(log: string[], name: string) {
  let finish!: () => void
  let fail!: (error: Error) => void
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve
    fail = reject
  })
  return {
    write: () => {
      log.push(`start ${name}`)
      return done.then(() => {
        log.push(`end ${name}`)
      })
    },
    finish,
    fail,
  }
}

/** Lets every pending callback run (microtasks and one turn of the event loop). */
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('batchPipeline', () => {
  it('runs one write at a time, in order, while the caller goes on', async () => {
    const log: string[] = []
    const pipeline = batchPipeline()
    const first = manualWrite(log, '1')
    const second = manualWrite(log, '2')
    await pipeline.start(first.write)
    log.push('preparing 2')
    await pipeline.between()
    const starting = pipeline.start(second.write)
    await turn()
    // The second waits for the first.
    expect(log).toEqual(['start 1', 'preparing 2'])
    first.finish()
    await starting
    expect(log).toEqual(['start 1', 'preparing 2', 'end 1', 'start 2'])
    second.finish()
    await pipeline.finish()
    expect(log.at(-1)).toBe('end 2')
  })

  it('reports a failed write at the next step, before anything the caller found after it', async () => {
    const pipeline = batchPipeline()
    const log: string[] = []
    const write = manualWrite(log, '1')
    await pipeline.start(write.write)
    write.fail(new Error('batch refused'))
    await turn()
    await expect(pipeline.between()).rejects.toThrow('batch refused')
    // The caller's own later error loses to the write's.
    await expect(pipeline.finish({ thrown: new Error('later problem') })).rejects.toThrow('batch refused')
  })

  it('waits for the write in flight before it lets the caller leave with its own error', async () => {
    const pipeline = batchPipeline()
    const log: string[] = []
    const write = manualWrite(log, '1')
    await pipeline.start(write.write)
    let left = false
    const leaving = pipeline.finish({ thrown: new Error('caller failed') }).catch((error: Error) => {
      left = true
      return error.message
    })
    await turn()
    expect(left).toBe(false)
    write.finish()
    expect(await leaving).toBe('caller failed')
    expect(log).toEqual(['start 1', 'end 1'])
  })

  it('refuses to start a write after one failed', async () => {
    const pipeline = batchPipeline()
    const log: string[] = []
    const failing = manualWrite(log, '1')
    await pipeline.start(failing.write)
    failing.fail(new Error('batch refused'))
    const next = manualWrite(log, '2')
    await expect(pipeline.start(next.write)).rejects.toThrow('batch refused')
    expect(log).toEqual(['start 1'])
  })

  it('lets the event loop turn between steps only while a write is in flight', async () => {
    const pipeline = batchPipeline()
    let turned = false
    setImmediate(() => {
      turned = true
    })
    await pipeline.between()
    expect(turned).toBe(false)
    const write = manualWrite([], '1')
    await pipeline.start(write.write)
    await pipeline.between()
    expect(turned).toBe(true)
    write.finish()
    await pipeline.settled()
  })
})
