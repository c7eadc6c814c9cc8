import { Readable } from 'node:stream'
import { createGzip, gzipSync } from 'node:zlib'
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { plainAnswer } from './answer-headers.ts'

/** Smaller answers go out as they are: gzip would save too little to pay for itself. */
const COMPRESS_FROM_BYTES = 1024
/** A list page (20 KB of JSON) comes out 7% larger than at the default level (3.9 against 3.65 KB), for half its CPU. */
const GZIP_LEVEL = 1

/**
 * A JSON answer with its Content-Length, gzipped here when the client accepts it and it is 1 KiB
 * or more (`jsonRepresentation`). compress() leaves an answer that has its encoding.
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
  const representation = jsonRepresentation(text, c.req.method, c.req.header('accept-encoding'), headers)
  return plainAnswer(c, representation.body, status, representation.headers)
}

/**
 * The bytes and headers of a JSON text as sent to a request of `method` accepting `acceptEncoding`:
 * gzipped when the client accepts it and it is 1 KiB or more, with its Content-Length; `headers`
 * (the answer's own) come first. Hono's compress() pipes an answer through a `CompressionStream`:
 * that doubled the server's CPU for a prompts list page (about 1 ms more per request), against
 * about 0.1 ms for compressing the text at once.
 */
export function jsonRepresentation(
  text: string,
  method: string,
  acceptEncoding: string | undefined,
  headers?: Record<string, string>,
): { body: string | Uint8Array; headers: Record<string, string> } {
  const length = Buffer.byteLength(text)
  if (length >= COMPRESS_FROM_BYTES && method !== 'HEAD' && acceptsGzip(acceptEncoding)) {
    const body = gzipSync(text, { level: GZIP_LEVEL })
    const etag = headers?.ETag
    return {
      body,
      headers: {
        ...headers,
        // The gzipped bytes are another representation: a strong validator becomes a weak one.
        ...(etag && !etag.startsWith('W/') && { ETag: `W/${etag}` }),
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        'Content-Length': String(body.length),
      },
    }
  }
  // Object.assign, not a spread: spreading and adding keys cost a microsecond per answer.
  return {
    body: text,
    headers: Object.assign({}, headers, {
      'Content-Type': 'application/json',
      'Content-Length': String(length),
    }),
  }
}

/**
 * A JSON answer written as `pieces` come (their concatenation is the document), gzipped on the way
 * (the same level as `jsonText`) when the client accepts it: for an answer too large to build
 * whole in memory (a space's export). The next piece is asked for only when the client has taken
 * the last (backpressure); an error after the first piece ends the connection, so a client never
 * takes a cut document for a whole one.
 */
export function jsonStream(
  c: Context,
  pieces: AsyncIterable<string>,
  status: ContentfulStatusCode = 200,
): Response {
  const text = Readable.from(
    (async function* () {
      for await (const piece of pieces) yield Buffer.from(piece)
    })(),
    { objectMode: false },
  )
  const gzip = c.req.method !== 'HEAD' && acceptsGzip(c.req.header('accept-encoding'))
  const body = gzip ? text.pipe(createGzip({ level: GZIP_LEVEL })) : text
  if (gzip) text.on('error', (error) => body.destroy(error))
  return c.body(Readable.toWeb(body) as ReadableStream<Uint8Array>, status, {
    'Content-Type': 'application/json',
    ...(gzip && { 'Content-Encoding': 'gzip' }),
  })
}

/** Whether an Accept-Encoding header accepts gzip (`gzip` or `*`, with a q-value above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  let accepted = false
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';')
    if (name !== 'gzip' && name !== '*') continue
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    // An explicit gzip entry decides over the wildcard, whichever comes first.
    if (name === 'gzip') return weight > 0
    accepted = weight > 0
  }
  return accepted
}
