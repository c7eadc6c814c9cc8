import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

/**
 * A JSON answer that states its Content-Length. compress() cannot tell a body's size otherwise and
 * gzipped every answer through a stream, small ones included: about 1.3 ms added to a health check
 * (issue 19). With the length, answers under 1 KiB go out as they are.
 */
export function jsonAnswer(
  c: Context,
  value: unknown,
  status: ContentfulStatusCode = 200,
  headers?: Record<string, string>,
): Response {
  return jsonText(c, JSON.stringify(value), status, headers)
}

/** `jsonAnswer` for a body already serialized (the prompt fetch hashes it for its ETag). */
export function jsonText(
  c: Context,
  text: string,
  status: ContentfulStatusCode = 200,
  headers?: Record<string, string>,
): Response {
  // Given with this answer, not set on the context: an error rendered inside a streamed answer
  // (import progress) must not change the headers of the stream.
  return c.body(text, status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
  })
}
