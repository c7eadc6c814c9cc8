import { describe, expect, it } from 'vitest'
import { AppError } from './errors.ts'

describe('AppError', () => {
  it('carries no stack trace for a refusal (4xx): it is an answer, not a fault', () => {
    const refusal = new AppError('not_found')
    expect(refusal.status).toBe(404)
    expect(refusal.stack?.split('\n').filter((line) => line.trim().startsWith('at '))).toEqual([])
  })

  it('keeps the stack trace of a server error (5xx), which the log needs', () => {
    const fault = new AppError('unexpected')
    expect(fault.status).toBe(500)
    expect(fault.stack).toContain('errors.test.ts')
  })

  it('puts the stack trace limit back for every other error', () => {
    const before = Error.stackTraceLimit
    new AppError('validation')
    expect(Error.stackTraceLimit).toBe(before)
    expect(new Error('other').stack).toContain('errors.test.ts')
  })
})
