import type { MiddlewareHandler } from 'hono'
import { AppError } from '../../domain/errors.ts'

/**
 * A body limit for a route that reads its body as it arrives (the import): Hono's `bodyLimit`
 * collects a body sent without Content-Length (chunked) whole before the route sees it, which
 * held up to the limit twice over beside the route's own copy. Here such a body is counted as the
 * route reads it, and the read fails with `payload_too_large` at the first byte over the limit.
 */
export function streamedBodyLimit(maxSize: number): MiddlewareHandler {
  return async (c, next) => {
    const { raw } = c.req
    if (!raw.body) return next()
    const declared = raw.headers.get('content-length')
    if (declared !== null && !raw.headers.has('transfer-encoding')) {
      if (Number.parseInt(declared, 10) > maxSize) throw new AppError('payload_too_large')
      return next()
    }
    let size = 0
    const counted = raw.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(piece, controller) {
          size += piece.byteLength
          if (size > maxSize) controller.error(new AppError('payload_too_large'))
          else controller.enqueue(piece)
        },
      }),
    )
    c.req.raw = new Request(raw, { body: counted, duplex: 'half' } as RequestInit)
    return next()
  }
}
