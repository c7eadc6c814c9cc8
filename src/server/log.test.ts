import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLogger } from './log.ts'

afterEach(() => vi.restoreAllMocks())

describe('the logger', () => {
  it('writes the info lines of one turn of the event loop in one write, in order', async () => {
    const writes: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      writes.push(String(chunk))
      return true
    })
    const log = createLogger('info', { service: 'test' })
    log.info('first', { n: 1 })
    const child = log.child({ requestId: 'r1' })
    child.info('second')
    child.child({ requestId: 'r2', step: 'inner' }).info('third')
    log.debug('not at this level')
    expect(writes).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes).toHaveLength(1)
    const lines = writes[0]!
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines).toMatchObject([
      { level: 'info', msg: 'first', n: 1, service: 'test' },
      { level: 'info', msg: 'second', requestId: 'r1', service: 'test' },
      { level: 'info', msg: 'third', requestId: 'r2', step: 'inner', service: 'test' },
    ])
    // A child's fields come after its parents', in the order they were given.
    expect(Object.keys(lines[2])).toEqual(['time', 'level', 'msg', 'service', 'requestId', 'step'])
  })

  it('says which levels it writes, for its children too', () => {
    const log = createLogger('warn')
    expect([log.wants('debug'), log.wants('info'), log.wants('warn'), log.wants('error')]).toEqual([
      false,
      false,
      true,
      true,
    ])
    expect(log.child({ requestId: 'r1' }).wants('info')).toBe(false)
    expect(createLogger('silent').wants('error')).toBe(false)
  })

  it('writes warnings and errors at once, errors reduced to name, message and stack', () => {
    const writes: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      writes.push(String(chunk))
      return true
    })
    createLogger('info').error('failed', { err: new TypeError('boom') })
    expect(writes).toHaveLength(1)
    expect(JSON.parse(writes[0]!)).toMatchObject({
      level: 'error',
      err: { name: 'TypeError', message: 'boom', stack: expect.stringContaining('TypeError') },
    })
  })

  it("logs a failed query's cause with the database's error code, without the query's parameters", () => {
    const writes: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      writes.push(String(chunk))
      return true
    })
    const cause = Object.assign(new Error('deadlock detected'), { code: '40P01' })
    const failed = new Error('Failed query: update prompts set title = $1\nparams: secret title', { cause })
    createLogger('info').error('failed', { err: failed })
    const entry = JSON.parse(writes[0]!)
    expect(entry.err.cause).toMatchObject({ message: 'deadlock detected', code: '40P01' })
    expect(writes[0]).not.toContain('secret title')
  })
})
