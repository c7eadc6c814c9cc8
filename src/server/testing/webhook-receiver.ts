import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedWebhook {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

export interface ReceiverAnswer {
  status: number
  body?: string
  /** Answer only once this settles (a slow endpoint). */
  after?: Promise<unknown>
  /** Extra response headers (a redirect's Location). */
  headers?: Record<string, string>
}

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests and the bench: it records every request and
 * answers what `answer` says (200 by default). `waitFor(n)` resolves once n requests (on a path)
 * have arrived, without sleeping.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = []
  answer: (request: ReceivedWebhook) => ReceiverAnswer = () => ({ status: 200, body: 'ok' })
  private waiters: Array<{ path: string | undefined; count: number; resolve: () => void }> = []

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', async () => {
        const request = {
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }
        receiver!.received.push(request)
        receiver!.notify()
        const answer = receiver!.answer(request)
        if (answer.after) await answer.after
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers })
        res.end(answer.body ?? '')
      })
    })
    server.keepAliveTimeout = 1
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}`)
    return receiver
  }

  /** The requests on `path` (all when omitted). */
  on(path?: string): ReceivedWebhook[] {
    return path === undefined ? this.received : this.received.filter((r) => r.path === path)
  }

  waitFor(count: number, path?: string): Promise<void> {
    if (this.on(path).length >= count) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push({ path, count, resolve }))
  }

  private notify() {
    this.waiters = this.waiters.filter((waiter) => {
      if (this.on(waiter.path).length < waiter.count) return true
      waiter.resolve()
      return false
    })
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
