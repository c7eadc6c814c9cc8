/**
 * One batch written while the caller prepares the next (an import: the database writes batch N
 * while the server parses and plans batch N+1), never more, so memory holds two batches at most.
 *
 * The writes stay in the order they were started, one at a time on the transaction's connection:
 * `start` and `settled` wait for the write in flight first. A write that fails is reported as the
 * sequential code would have reported it: by the next `start`, `settled` or `between`, before
 * anything the caller found later (`finish` prefers it to the caller's own error), and the
 * transaction is never left while a write is still using it.
 */
export interface BatchPipeline {
  /** Starts `write` once the write in flight (if any) is done; throws that one's error. */
  start(write: () => Promise<void>): Promise<void>
  /** Waits for the write in flight; throws its error. */
  settled(): Promise<void>
  /**
   * Between two steps of preparing the next batch: throws the write's error as soon as it is known,
   * and while a write is in flight lets the event loop take its statements' answers (parsing runs
   * in microtasks only, which would otherwise hold every answer until the batch is prepared).
   */
  between(): Promise<void>
  /**
   * The end of the caller's work, `error` when it failed: waits for the write in flight, then
   * throws its error first (what the sequential code met first), else `error`.
   */
  finish(error?: { thrown: unknown }): Promise<void>
}

export function batchPipeline(): BatchPipeline {
  let inFlight: Promise<void> | undefined
  let writing = false
  let failure: { thrown: unknown } | undefined
  const settled = async () => {
    if (inFlight) await inFlight
    inFlight = undefined
    if (failure) throw failure.thrown
  }
  return {
    async start(write) {
      await settled()
      writing = true
      inFlight = write().then(
        () => {
          writing = false
        },
        (thrown: unknown) => {
          writing = false
          failure = { thrown }
        },
      )
    },
    settled,
    async between() {
      if (failure) throw failure.thrown
      if (writing) await new Promise((resolve) => setImmediate(resolve))
    },
    async finish(error) {
      await settled()
      if (error) throw error.thrown
    },
  }
}
