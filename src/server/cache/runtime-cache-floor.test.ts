import { describe, expect, it } from 'vitest'
import type { Database, Db } from '../db/client.ts'
import type { Lsn } from '../db/read-routing.ts'
import { CACHE_CHANNEL, RuntimeCache } from './runtime-cache.ts'

/**
 * With read replicas, what a runtime cache fill may read from (its ticket's floor): the primary from
 * each notification until the primary's position after it is known, then a replica that has
 * replayed that position. The replica suite shows it end to end; these are the steps.
 */
function harness() {
  let notify: (payload: string) => void = () => {}
  const listen: Database['listen'] = async (channel, onNotify) => {
    expect(channel).toBe(CACHE_CHANNEL)
    notify = onNotify
    return async () => {}
  }
  const asked: { resolve: (lsn: Lsn) => void; reject: (error: Error) => void }[] = []
  const primaryPosition = () =>
    new Promise<Lsn>((resolve, reject) => {
      asked.push({ resolve, reject })
    })
  const cache = new RuntimeCache({} as Db, listen, primaryPosition, Promise.resolve(CACHE_CHANNEL))
  const floor = () => {
    const ticket = cache.begin()
    cache.end(ticket)
    return ticket.floor
  }
  /** Lets the cache's own continuations (its question to the primary) run. */
  const settle = () => new Promise((resolve) => setImmediate(resolve))
  return { cache, asked, floor, settle, notify: (payload: string) => notify(payload) }
}

describe('the runtime cache’s floor for fills', () => {
  it('fills from the primary until it knows where the primary was when it started listening', async () => {
    const h = harness()
    await h.cache.ready
    expect(h.floor()).toBe('primary')
    expect(h.asked).toHaveLength(1)
    h.asked[0]!.resolve(100n)
    await h.settle()
    expect(h.floor()).toBe(100n)
  })

  it('goes back to the primary at each notification, then to the position asked after it', async () => {
    const h = harness()
    await h.cache.ready
    h.asked[0]!.resolve(100n)
    await h.settle()
    h.notify('p|user:u1|greeting')
    expect(h.floor()).toBe('primary')
    h.asked[1]!.resolve(150n)
    await h.settle()
    expect(h.floor()).toBe(150n)
  })

  it('keeps the primary while a newer notification arrived during the question, and asks again', async () => {
    const h = harness()
    await h.cache.ready
    h.asked[0]!.resolve(100n)
    await h.settle()
    h.notify('p|user:u1|a')
    h.notify('p|user:u1|b')
    // The answer to the first question may be older than the second notification's commit.
    h.asked[1]!.resolve(150n)
    await h.settle()
    expect(h.floor()).toBe('primary')
    h.asked[2]!.resolve(160n)
    await h.settle()
    expect(h.floor()).toBe(160n)
  })

  it('stays on the primary when the question fails, and asks again at the next fill', async () => {
    const h = harness()
    await h.cache.ready
    h.asked[0]!.reject(new Error('primary unreachable'))
    await h.settle()
    expect(h.floor()).toBe('primary')
    expect(h.asked).toHaveLength(2)
    h.asked[1]!.resolve(120n)
    await h.settle()
    expect(h.floor()).toBe(120n)
  })

  it('needs no floor without replicas', async () => {
    const cache = new RuntimeCache({} as Db, async () => async () => {})
    await cache.ready
    const ticket = cache.begin()
    expect(ticket.floor).toBeNull()
  })
})
