import { beforeEach, describe, expect, it } from 'vitest'
import { DEBUG_LOG_ENTRIES } from '../../domain/constants.ts'
import { debugLog, debugLogText, RingBuffer, redact } from './debug-log.ts'

describe('RingBuffer', () => {
  it('keeps items oldest first until full', () => {
    const ring = new RingBuffer<number>(3)
    expect(ring.toArray()).toEqual([])
    ring.push(1)
    ring.push(2)
    expect(ring.toArray()).toEqual([1, 2])
    expect(ring.size).toBe(2)
  })

  it('drops the oldest once full, across several wraps', () => {
    const ring = new RingBuffer<number>(3)
    for (let i = 1; i <= 10; i++) ring.push(i)
    expect(ring.toArray()).toEqual([8, 9, 10])
    expect(ring.size).toBe(3)
  })

  it('starts over when cleared', () => {
    const ring = new RingBuffer<number>(2)
    for (let i = 1; i <= 5; i++) ring.push(i)
    ring.clear()
    expect(ring.toArray()).toEqual([])
    ring.push(6)
    expect(ring.toArray()).toEqual([6])
  })

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError)
    expect(() => new RingBuffer(1.5)).toThrow(RangeError)
  })
})

describe('debugLog', () => {
  beforeEach(() => debugLog.clear())

  it(`keeps the last ${DEBUG_LOG_ENTRIES} entries with their level`, () => {
    expect(DEBUG_LOG_ENTRIES).toBe(100)
    for (let i = 1; i <= 130; i++) debugLog.info(`entry ${i}`)
    debugLog.error('the last')
    const entries = debugLog.entries()
    expect(entries).toHaveLength(100)
    expect(entries[0]!.message).toBe('entry 32')
    expect(entries.at(-1)).toMatchObject({ level: 'error', message: 'the last' })
  })

  it('tells subscribers of every write and hands them a new snapshot', () => {
    let calls = 0
    const stop = debugLog.subscribe(() => calls++)
    const before = debugLog.entries()
    debugLog.warn('one')
    expect(calls).toBe(1)
    expect(debugLog.entries()).not.toBe(before)
    stop()
    debugLog.warn('two')
    expect(calls).toBe(1)
  })

  it('redacts what it is given before keeping it', () => {
    debugLog.error('POST /api/v1/invitations/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg/accept failed')
    expect(debugLog.entries()[0]!.message).toBe('POST /api/v1/invitations/[redacted]/accept failed')
  })

  it('writes a text with a header and one line per entry', () => {
    debugLog.warn('first')
    debugLog.error('second')
    const text = debugLogText(debugLog.entries(), {
      now: new Date('2026-01-02T03:04:05.000Z'),
      page: 'https://app.example.com/test?token=abc',
      agent: 'Test Agent',
    })
    const lines = text.split('\n')
    expect(lines[0]).toBe(
      'Promptfolio debug log, 2026-01-02T03:04:05.000Z, https://app.example.com/test?token=[redacted], Test Agent',
    )
    expect(lines.slice(1).map((line) => line.replace(/^\S+ /, ''))).toEqual(['WARN first', 'ERROR second'])
  })
})

describe('redact', () => {
  it.each([
    ['Authorization: Bearer sk-abc123def456ghi', 'Authorization: [redacted]'],
    ['header Bearer abc.def-ghi', 'header Bearer [redacted]'],
    ['Basic cGstbGYtMTIzOnNrLWxmLTQ1Ng==', 'Basic [redacted]'],
    ['key sk-lf-1234567890abcdef and pk-lf-1234567890', 'key sk-[redacted] and pk-[redacted]'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl here', 'jwt [redacted] here'],
    [
      '/auth/confirm?token_hash=abc123&type=recovery&next=/x',
      '/auth/confirm?token_hash=[redacted]&type=recovery&next=/x',
    ],
    ['/auth/callback?code=4/0AbC&state=xyz', '/auth/callback?code=[redacted]&state=[redacted]'],
    ['{"email":"a@b.c","password":"hunter2 hunter2"}', '{"email":"a@b.c","password":[redacted]}'],
    ['secret: s3cr3t, other: fine', 'secret: [redacted], other: fine'],
    ['session token 0123456789abcdefghijABCDEFGHIJ_-xy', 'session token [redacted]'],
    ['/invite/abcdefghijklmnopqrstu', '/invite/[redacted]'],
  ])('redacts %j', (input, expected) => {
    expect(redact(input)).toBe(expected)
  })

  it('leaves ordinary text, ids, statuses and addresses alone', () => {
    const text =
      'GET /api/v1/teams/0c6f2a3e-1b2c-4d5e-8f90-123456789abc → 404 Team not found or access denied (ada@example.com)'
    expect(redact(text)).toBe(text)
  })
})
