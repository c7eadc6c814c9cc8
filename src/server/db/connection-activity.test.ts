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
    const failing = activity.track(async () => Promise.reject(new Error('the database is gone')))
    const waiting = held()
    const queued = activity.track(() => waiting.call)
    await expect(failing).rejects.toThrow()
    expect(activity.recentAnswerWhileBusy()).toBeNull()
    waiting.answer()
    await queued
  })

  it('runs calls one after the other, letting the event loop go round before each', async () => {
    const { activity } = setUp()
    const order: string[] = []
    const first = activity.track(async () => {
      order.push('first call')
      // What arrives meanwhile (a request to read): runs before the next call, not after the queue.
      setImmediate(() => order.push('waiting request'))
    })
    const second = activity.track(async () => {
      order.push('second call')
    })
    await Promise.all([first, second])
    expect(order).toEqual(['first call', 'waiting request', 'second call'])
  })

  it("lets the event loop go round before each of a transaction's statements", async () => {
    const { activity } = setUp()
    const order: string[] = []
    await activity.track(async () => {
      await activity.observe(async () => {
        order.push('first statement')
        setImmediate(() => order.push('waiting request'))
      })
      await activity.observe(async () => {
        order.push('second statement')
      })
    })
    expect(order).toEqual(['first statement', 'waiting request', 'second statement'])
  })

  describe('latency', () => {
    it('runs the probe on an idle connection', async () => {
      const { activity } = setUp()
      await expect(activity.latency(async () => 7)).resolves.toBe(7)
    })

    it('answers from a recent answer while the connection is busy, without probing', async () => {
      const { activity, held, advance } = setUp()
      await activity.track(async () => advance(12))
      const waiting = held()
      const queued = activity.track(() => waiting.call)
      let probed = false
      await expect(
        activity.latency(async () => {
          probed = true
          return 1
        }),
      ).resolves.toBe(12)
      expect(probed).toBe(false)
      waiting.answer()
      await queued
    })

    it('waits for the next answer of any call when the busy connection answered nothing lately', async () => {
      const { activity, held, advance } = setUp()
      const waiting = held()
      const queued = activity.track(() => waiting.call)
      advance(RECENT_ANSWER_MS + 5_000)
      const never = new Promise<number>(() => {})
      const latency = activity.latency(() => never)
      advance(30)
      waiting.answer()
      await queued
      await expect(latency).resolves.toBe(RECENT_ANSWER_MS + 5_030)
    })
  })
})
