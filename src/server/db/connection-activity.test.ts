import { describe, expect, it } from 'vitest'
import { connectionActivity, RECENT_ANSWER_MS } from './connection-activity.ts'

/** A clock the test moves by hand, and a call that answers only when told to. */
function setUp() {
  let clock = 0
  const activity = connectionActivity(() => clock)
  const held = () => {
    let answer = () => {}
    const call = new Promise<void>((resolve) => {
      answer = resolve
    })
    return { call, answer }
  }
  return { activity, held, advance: (ms: number) => (clock += ms) }
}

describe('connectionActivity', () => {
  it('offers nothing while the connection is idle: a probe then runs at once', async () => {
    const { activity } = setUp()
    await activity.track(async () => 'answered')
    expect(activity.recentAnswerWhileBusy()).toBeNull()
  })

  it('offers the latest answer while calls are in flight, with the time it took', async () => {
    const { activity, held, advance } = setUp()
    const first = held()
    const tracked = activity.track(() => first.call)
    advance(40)
    first.answer()
    await tracked
    const waiting = held()
    const queued = activity.track(() => waiting.call)
    advance(200)
    expect(activity.recentAnswerWhileBusy()).toEqual({ tookMs: 40, ageMs: 200 })
    waiting.answer()
    await queued
  })

  it("counts a transaction's statements as answers while the transaction holds the connection", async () => {
    const { activity, held, advance } = setUp()
    const transaction = held()
    const running = activity.track(() => transaction.call)
    expect(activity.recentAnswerWhileBusy()).toBeNull()
    advance(5_000)
    await activity.observe(async () => advance(3))
    expect(activity.recentAnswerWhileBusy()).toEqual({ tookMs: 3, ageMs: 0 })
    transaction.answer()
    await running
  })

  it('offers nothing once the busy connection has not answered for longer than the window', async () => {
    const { activity, held, advance } = setUp()
    await activity.track(async () => 'answered')
    const stuck = held()
    const running = activity.track(() => stuck.call)
    advance(RECENT_ANSWER_MS)
    expect(activity.recentAnswerWhileBusy()).not.toBeNull()
    advance(1)
    expect(activity.recentAnswerWhileBusy()).toBeNull()
    stuck.answer()
    await running
  })

  it('does not take a failed call for an answer', async () => {
    const { activity, held } = setUp()
    const waiting = held()
    const queued = activity.track(() => waiting.call)
    await expect(
      activity.track(async () => Promise.reject(new Error('the database is gone'))),
    ).rejects.toThrow()
    expect(activity.recentAnswerWhileBusy()).toBeNull()
    waiting.answer()
    await queued
  })
})
