import { once } from 'node:events'
import { Worker } from 'node:worker_threads'

export interface Watched {
  /** The slowest /api/health answer during the case, or how long one had been waiting at its end. */
  slowestHealthMs: number
  healthAnswers: number
  /** Up to three failed health requests (refused, closed, not 200). */
  healthErrors: string[]
  /** The server's highest resident memory during the case, in kB. */
  peakRssKb: number
}

/** The health poller and memory sampler of monitor-worker.mjs, per case: `begin`, then `end`. */
export class Monitor {
  private constructor(private readonly worker: Worker) {}

  static start(pid: number, port: number, intervalMs: number): Monitor {
    const worker = new Worker(new URL('./monitor-worker.mjs', import.meta.url), {
      workerData: { pid, port, intervalMs },
    })
    return new Monitor(worker)
  }

  private async ask<T>(message: object, reply: string): Promise<T> {
    const answer = new Promise<T>((resolve) => {
      const listen = (data: { type: string } & T) => {
        if (data.type !== reply) return
        this.worker.off('message', listen)
        resolve(data)
      }
      this.worker.on('message', listen)
    })
    this.worker.postMessage(message)
    return answer
  }

  /** Watches another process (the server after a restart). */
  retarget(pid: number, port: number): Promise<void> {
    return this.ask({ type: 'retarget', pid, port }, 'retargeted')
  }

  begin(): Promise<void> {
    return this.ask({ type: 'begin' }, 'begun')
  }

  end(): Promise<Watched> {
    return this.ask({ type: 'end' }, 'ended')
  }

  async stop(): Promise<void> {
    const exited = once(this.worker, 'exit')
    await this.worker.terminate()
    await exited
  }
}
