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
 * What a single-connection database (PGlite) is doing: how many calls wait for or hold its
 * connection, and the latest one that answered. PGlite runs one statement at a time, so a probe
 * sent while others are queued waits for all of them: with a few saves and webhook writes in
 * flight that is longer than a load balancer should wait, although the database answers all the
 * while. A statement that answered moments ago shows the same thing without the wait; a database
 * that stopped answering shows nothing, and the probe then queues (and fails or hangs) as before.
 */
export function connectionActivity(now: () => number = () => performance.now()) {
  let pending = 0
  let latest: { at: number; tookMs: number } | null = null

  function answered(startedAt: number) {
    const at = now()
    latest = { at, tookMs: Math.round((at - startedAt) * 100) / 100 }
  }

  return {
    /** Runs `call` on the connection, counted while it waits or runs; its answer is recorded. */
    async track<T>(call: () => Promise<T>): Promise<T> {
      pending += 1
      const startedAt = now()
      try {
        const result = await call()
        answered(startedAt)
        return result
      } finally {
        pending -= 1
      }
    },
    /** Records a statement answered inside a tracked call (a transaction's statements). */
    async observe<T>(call: () => Promise<T>): Promise<T> {
      const startedAt = now()
      const result = await call()
      answered(startedAt)
      return result
    },
    /**
     * While calls wait for or hold the connection: the latest answer, if it came within
     * RECENT_ANSWER_MS. Null when the connection is idle (a probe then runs at once) or when
     * nothing answered lately (the probe must then wait and see).
     */
    recentAnswerWhileBusy(): Answer | null {
      if (pending === 0 || latest === null) return null
      const ageMs = now() - latest.at
      return ageMs <= RECENT_ANSWER_MS ? { tookMs: latest.tookMs, ageMs } : null
    },
  }
}

export type ConnectionActivity = ReturnType<typeof connectionActivity>
