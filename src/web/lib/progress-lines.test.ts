import { describe, expect, it } from 'vitest'
import { type CallProgress, readProgressLines } from './api-streams.ts'

describe('readProgressLines', () => {
  it('reads complete lines only, from where it stopped, keeping the last non-progress line', () => {
    const seen: CallProgress[] = []
    let last: unknown = null
    const keep = (line: unknown) => {
      last = line
    }
    const text = '{"progress":{"done":0,"total":2}}\n{"progress":{"done":1,"total":2}}\n{"resu'
    const next = readProgressLines(text, 0, (p) => seen.push(p), keep)
    expect(seen).toEqual([
      { phase: 'server', done: 0, total: 2 },
      { phase: 'server', done: 1, total: 2 },
    ])
    expect(last).toBeNull()
    const full = `${text}lt":{"created":2}}\n`
    expect(readProgressLines(full, next, (p) => seen.push(p), keep)).toBe(full.length)
    expect(seen).toHaveLength(2)
    expect(last).toEqual({ result: { created: 2 } })
  })
})
