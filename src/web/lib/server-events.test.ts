import { describe, expect, it } from 'vitest'
import { readServerEvents } from './api-streams.ts'

describe('readServerEvents', () => {
  it('reads complete events only, with their names and data, from where it stopped; comments are none', () => {
    const text = 'event: text\ndata: {"text":"Hel"}\n\n: a comment\n\nevent: text\ndata: {"te'
    const first = readServerEvents(text, 0)
    expect(first.events).toEqual([{ event: 'text', data: '{"text":"Hel"}' }])
    const full = `${text}xt":"lo"}\n\nevent: result\ndata: {"a":1}\ndata: {"b":2}\n\n`
    const second = readServerEvents(full, first.next)
    expect(second.events).toEqual([
      { event: 'text', data: '{"text":"lo"}' },
      { event: 'result', data: '{"a":1}\n{"b":2}' },
    ])
    expect(second.next).toBe(full.length)
  })

  it('keeps a value’s own colons and drops only the one space after the field name', () => {
    expect(readServerEvents('data:  a: b\n\n', 0).events).toEqual([{ event: 'message', data: ' a: b' }])
  })
})
