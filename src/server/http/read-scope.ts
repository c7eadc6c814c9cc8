import type { MiddlewareHandler } from 'hono'
import type { Database } from '../db/client.ts'
import { inReadScope } from '../db/read-routing.ts'
import { callerOf } from '../db/replicas.ts'
import type { AppEnv } from './env.ts'

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * With read replicas: every request runs in a read scope naming its caller (a hash of its session
 * or key). A request that may write (any method but GET, HEAD, OPTIONS) reads only from the primary,
 * and once answered (a streamed answer: once its body ends), its caller's reads wait for a replica that has replayed the primary's position
 * (read-your-own-writes, decision 0260). Mounted only with replicas.
 */
export function readScope(replicas: NonNullable<Database['replicas']>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = callerOf(c.req.raw.headers)
    const writes = !READS.has(c.req.method)
    await inReadScope({ caller, primary: writes, floor: null }, next)
    if (!writes || caller === null) return
    // A streamed answer (server-sent events, progress lines) is written after `next` returns: its
    // writes are only all committed once its body ends, so the caller's floor is taken then.
    const type = c.res.headers.get('content-type') ?? ''
    if (c.res.body && (type.startsWith('text/event-stream') || type.startsWith('application/x-ndjson'))) {
      const ended = new TransformStream<Uint8Array, Uint8Array>({ flush: () => replicas.markWrite(caller) })
      c.res = new Response(c.res.body.pipeThrough(ended), c.res)
      return
    }
    await replicas.markWrite(caller)
  }
}
