import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http'

/**
 * Answers a request before the framework, or leaves it untouched and says so: false at once, or a
 * promise of false (it must never reject, nor answer in part).
 */
export type Lane = (req: IncomingMessage, res: ServerResponse) => false | Promise<boolean>

/**
 * `serve()`'s `createServer` option (@hono/node-server): node:http's server with `lane` in front of
 * the framework's listener. A request the lane leaves goes on without waiting when the lane said so
 * at once (every request but the one it serves), else once it said so.
 */
export function serverWithLane(lane: Lane): typeof createServer {
  return ((options: object, framework: RequestListener) =>
    createServer(options, (req, res) => {
      const taken = lane(req, res)
      if (taken === false) return framework(req, res)
      void taken.then((answered) => {
        if (!answered) framework(req, res)
      })
    })) as typeof createServer
}
