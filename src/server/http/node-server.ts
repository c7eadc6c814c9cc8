import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'

/**
 * Answers a request before the framework, or leaves it untouched and says so: false at once, or a
 * promise of false (it must never reject, nor answer in part).
 */
export type Lane = (req: IncomingMessage, res: ServerResponse) => false | Promise<boolean>

/**
 * The app served on `port` (0: a free one), as main.ts serves it and the tests' `listen` too:
 * `lane` in front of the framework, listening on `host` (every interface when none). The host goes
 * to `listen()` only: given to the adapter as its `hostname`, it would take it for the Host of a
 * request without one instead of refusing that request.
 */
export function serveApp(
  options: {
    fetch: Parameters<typeof createAdaptorServer>[0]['fetch']
    port: number
    lane: Lane
    host?: string
  },
  listening?: (info: AddressInfo) => void,
): Server {
  // node:http's server, made by `serverWithLane`.
  const server = createAdaptorServer({
    fetch: options.fetch,
    createServer: serverWithLane(options.lane),
  }) as Server
  server.listen(options.port, options.host, () => listening?.(server.address() as AddressInfo))
  return server
}

/**
 * `serve()`'s `createServer` option (@hono/node-server): node:http's server with `lane` in front of
 * the framework's listener. A request the lane leaves goes on without waiting when the lane said so
 * at once (every request but the one it serves), else once it said so.
 */
function serverWithLane(lane: Lane): typeof createServer {
  return ((options: object, framework: RequestListener) =>
    createServer(options, (req, res) => {
      const taken = lane(req, res)
      if (taken === false) return framework(req, res)
      void taken.then((answered) => {
        if (!answered) framework(req, res)
      })
    })) as typeof createServer
}
