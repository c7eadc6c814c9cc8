import { describe, expect, it } from 'vitest'
import {
  BenchConnectionError,
  CONNECTION_BUDGET,
  type ConnectionPlan,
  connectionsOf,
  describeHolders,
  isTooManyClients,
  reserveConnections,
  SERVER_CONNECTIONS,
} from './connections.ts'

describe('isTooManyClients', () => {
  it("finds PostgreSQL's refusal for want of slots in an error, its causes or an AggregateError", () => {
    // What node-postgres rejects connect() with (a DatabaseError carrying the SQLSTATE).
    const refused = Object.assign(new Error('sorry, too many clients already'), { code: '53300' })
    expect(isTooManyClients(refused)).toBe(true)
    expect(isTooManyClients(new Error('request failed', { cause: refused }))).toBe(true)
    expect(isTooManyClients(new AggregateError([new Error('other'), refused]))).toBe(true)
    // The app server's log line when its pool could not connect.
    expect(
      isTooManyClients({
        message: 'error: remaining connection slots are reserved for non-replication superuser connections',
      }),
    ).toBe(true)
    expect(
      isTooManyClients(Object.assign(new Error('password authentication failed'), { code: '28P01' })),
    ).toBe(false)
    expect(isTooManyClients(new Error('/api/v1/prompts: 3 non-2xx answers, 0 errors'))).toBe(false)
    expect(isTooManyClients(undefined)).toBe(false)
  })
})

describe('connection plans', () => {
  it('sums what a plan holds and names the holders of the connections by database', () => {
    expect(connectionsOf({ databaseUrl: null, holds: { 'app server': 14, 'SQL replay': 32 } })).toBe(46)
    expect(
      describeHolders([
        { database: 'test', application: '', count: 30 },
        { database: 'promptfolio_bench', application: 'promptfolio bench 4242', count: 10 },
        { database: 'promptfolio_bench', application: '', count: 2 },
      ]),
    ).toBe('test 30, promptfolio_bench 12 (promptfolio bench 4242 10)')
  })

  it('refuses a plan over the budget before it connects, saying what holds them', async () => {
    const plan: ConnectionPlan = {
      // Nothing listens there: the refusal comes before any connection.
      databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
      holds: { 'app servers': 5 * SERVER_CONNECTIONS, 'SQL replay': CONNECTION_BUDGET },
    }
    const refusal = await reserveConnections('example', plan).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(BenchConnectionError)
    expect((refusal as Error).message).toContain(
      `example would hold up to ${5 * SERVER_CONNECTIONS + CONNECTION_BUDGET} PostgreSQL connections (app servers ${5 * SERVER_CONNECTIONS}, SQL replay ${CONNECTION_BUDGET}), over the budget of ${CONNECTION_BUDGET}`,
    )
  })
})
