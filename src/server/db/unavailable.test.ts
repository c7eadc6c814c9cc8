import { describe, expect, it } from 'vitest'
import { isDatabaseUnavailable, isStorageFailure } from './unavailable.ts'

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

describe('isStorageFailure', () => {
  it.each([
    [
      'a full disk',
      Object.assign(new Error('could not extend file "base/5/16387": No space left on device'), {
        code: '53100',
      }),
    ],
    [
      'a read-only data folder',
      Object.assign(new Error('could not open file "base/5/16388": Operation not permitted'), {
        code: '42501',
      }),
    ],
    ['wrapped by the ORM', new Error('Failed query: insert', { cause: withCode('58030') })],
  ])('knows %s', (_, error) => {
    expect(isStorageFailure(error)).toBe(true)
  })

  it.each([
    [
      'a permission error on a table',
      Object.assign(new Error('permission denied for table prompts'), { code: '42501' }),
    ],
    ['an outage', withCode('ECONNREFUSED')],
    ['a plain error', new Error('boom')],
  ])('does not take %s for one', (_, error) => {
    expect(isStorageFailure(error)).toBe(false)
  })
})
