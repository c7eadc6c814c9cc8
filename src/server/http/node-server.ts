import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'

/**
 * Answers a request before the framework, or leaves it untouched and says so: false at once, or a
 * promise of false (it must never reject, nor answer in part).
 */
export type Lane = (req: IncomingMessage, res: ServerResponse) => false | Promise<boolean>

/**
 * The app served on `port` (0: a free one), as main.ts serves it and the tests' `listen` too: on
 * every interface, `lane` in front of the framework. No `hostname`: with one the adapter would take
 * it for a request without a Host header instead of refusing it.
 */
export function serveApp(
  options: { fetch: Parameters<typeof serve>[0]['fetch']; port: number; lane: Lane },
  listening?: (info: AddressInfo) => void,
): Server {
  // node:http's server, made by `serverWithLane`.
  return serve(
    { fetch: options.fetch, port: options.port, createServer: serverWithLane(options.lane) },
    listening,
  ) as Server
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
