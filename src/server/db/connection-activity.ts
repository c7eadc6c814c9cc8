import { setImmediate as nextTurnOfTheEventLoop } from 'node:timers/promises'

/**
 * How long an answer of the embedded database counts as proof that it works: a health check that
 * finds its one connection busy answers from an answer this recent instead of queueing behind the
 * work in flight. Older than this, the check waits its turn like any query.
 */
export const RECENT_ANSWER_MS = 1_000

/** A query (or a statement of a transaction) that answered: how long it took and when. */
export interface Answer {
  tookMs: number
  ageMs: number
}

/**
 * The turns on a single-connection database (PGlite) and what they show. PGlite runs each
 * statement synchronously on the main thread and hands its connection to the next waiting call in
 * a promise callback, so a queue of saves and webhook writes ran back to back without the event
 * loop reading a single request in between: a health check waited for the whole queue (1.2 s
 * under load, about 110 ms on an idle machine). Here every call waits for its turn in a queue of
 * our own and then lets the event loop go round once (`setImmediate`: incoming requests are read
 * first), and so does every statement of a transaction; a health check that then finds the
 * connection busy answers from a statement that answered moments ago instead of queueing. A
 * database that stopped answering shows no recent answer, and the check queues (and fails or
 * hangs) as any query would.
 */
export function connectionActivity(now: () => number = () => performance.now()) {
  let pending = 0
  let latest: { at: number; tookMs: number } | null = null
  let lastInLine: Promise<unknown> = Promise.resolve()
  /** Health checks waiting for the next answer of any call. */
  const waitingForAnswer = new Set<(tookMs: number) => void>()

  function answered(startedAt: number) {
    const at = now()
    latest = { at, tookMs: Math.round((at - startedAt) * 100) / 100 }
    for (const resolve of waitingForAnswer) resolve(latest.tookMs)
    waitingForAnswer.clear()
  }

  /** While calls wait for or hold the connection: the latest answer, if within RECENT_ANSWER_MS. */
  function recentAnswerWhileBusy(): Answer | null {
    if (pending === 0 || latest === null) return null
    const ageMs = now() - latest.at
    return ageMs <= RECENT_ANSWER_MS ? { tookMs: latest.tookMs, ageMs } : null
  }

  return {
    /**
     * Runs `call` when the calls before it are done and the event loop went round once; counted
     * while it waits or runs, its answer recorded.
     */
    async track<T>(call: () => Promise<T>): Promise<T> {
      pending += 1
      const startedAt = now()
      const turn = lastInLine.then(async () => {
        await nextTurnOfTheEventLoop()
        return call()
      })
      lastInLine = turn.catch(() => {})
      try {
        const result = await turn
        answered(startedAt)
        return result
      } finally {
        pending -= 1
      }
    },
    /**
     * A statement inside a tracked call (a transaction's), after the event loop went round once;
     * its answer recorded.
     */
    async observe<T>(call: () => Promise<T>): Promise<T> {
      await nextTurnOfTheEventLoop()
      const startedAt = now()
      const result = await call()
      answered(startedAt)
      return result
    },
    recentAnswerWhileBusy,
    /**
     * A health check's latency: on an idle connection, `probe`'s (a `select 1`, run at once).
     * While calls wait for or hold the connection: the latest answer's time, if it came within
     * RECENT_ANSWER_MS; else whichever comes first, the next answer of any call or the probe's
     * own, which queues behind them. A database that never answers again answers neither.
     */
    async latency(probe: () => Promise<number>): Promise<number> {
      const recent = recentAnswerWhileBusy()
      if (recent) return recent.tookMs
      if (pending === 0) return probe()
      const nextAnswer = new Promise<number>((resolve) => waitingForAnswer.add(resolve))
      return Promise.race([probe(), nextAnswer])
    },
  }
}

export type ConnectionActivity = ReturnType<typeof connectionActivity>
