import type { Database } from '../db/client.ts'
import type { Logger } from '../log.ts'

export interface QueueWorker {
  /** Listens for NOTIFY on the queue's channel and polls for due rows until stopped. */
  start(): Promise<void>
  /** Works off what is due now; resolves when this round is done (tests and admin pages use it). */
  deliverDue(): Promise<void>
  /** Stops polling and listening and waits for the round in flight. */
  stop(): Promise<void>
}

/**
 * The loop every database-backed queue of the app runs (the mail outbox, webhook deliveries): a
 * round is started by the NOTIFY that the queueing transaction sends on commit (from any process),
 * by a poll every `pollIntervalMs` (retries that fall due, and rows queued while a NOTIFY was
 * missed) and by `deliverDue()`. At most one round runs per worker; a wake-up during a round makes
 * it go once more. `drain` does one pass over the due rows (claiming them with FOR UPDATE SKIP
 * LOCKED, so any number of processes can run side by side) and answers whether more may be due;
 * a drain that waits for work in flight can also wait for `wokenUp()`, which resolves at the next
 * wake-up, to claim what was queued meanwhile without waiting for the round to end.
 */
export function createQueueWorker(deps: {
  name: string
  database: Database
  channel: string
  pollIntervalMs: number
  log: Logger
  drain: (wokenUp: () => Promise<void>) => Promise<boolean>
  onStop?: () => void | Promise<void>
}): QueueWorker & { readonly stopped: boolean } {
  const { name, database, channel, pollIntervalMs, log, drain } = deps
  let timer: NodeJS.Timeout | undefined
  let unlisten: (() => Promise<void>) | undefined
  let running: Promise<void> | undefined
  let again = false
  let stopped = false
  let wake: (() => void) | undefined
  let woken: Promise<void> | undefined
  const wokenUp = () => {
    woken ??= new Promise<void>((resolve) => {
      wake = resolve
    })
    return woken
  }
  function wakeUp() {
    const resolve = wake
    wake = undefined
    woken = undefined
    resolve?.()
  }

  async function round() {
    do {
      again = false
      if (await drain(wokenUp)) again = true
    } while (again && !stopped)
  }

  function deliverDue(): Promise<void> {
    if (running) {
      again = true
      wakeUp()
      return running
    }
    running = round()
      .catch((error) => log.error(`${name} round failed`, { err: error }))
      .finally(() => {
        running = undefined
      })
    return running
  }

  return {
    get stopped() {
      return stopped
    },
    async start() {
      stopped = false
      try {
        unlisten = await database.listen(channel, () => void deliverDue())
      } catch (error) {
        log.warn(`${name}: cannot listen for queued rows; polling only`, { err: error })
      }
      timer = setInterval(() => void deliverDue(), pollIntervalMs)
      timer.unref()
      void deliverDue()
    },
    deliverDue,
    async stop() {
      stopped = true
      wakeUp()
      if (timer) clearInterval(timer)
      await unlisten?.()
      await running
      await deps.onStop?.()
    },
  }
}
