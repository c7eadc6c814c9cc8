import { describe, expect, it } from 'vitest'
import { isDatabaseUnavailable } from './unavailable.ts'

const withCode = (code: string) => Object.assign(new Error('failed'), { code })

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['PostgreSQL shutting down', withCode('57P01')],
    ['too many connections', withCode('53300')],
    ['a dropped connection (by message)', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    ['wrapped by the ORM', new Error('Failed query: select 1', { cause: withCode('ECONNRESET') })],
    ['inside an AggregateError', new AggregateError([withCode('ECONNREFUSED')])],
  ])('knows %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true)
  })

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('does not take %s for an outage', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false)
  })
})
