import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from './env.ts'

/**
 * The headers of a JSON answer as one plain record (decision 0275). Hono keeps every header in an
 * undici `Headers` (its context, `secureHeaders`, `compress()`, and the Node adapter copies them
 * back out): about a tenth of a list request's CPU. A JSON answer built here carries, in one
 * record, what those would have set — the middlewares' defaults, every header set before it with
 * `c.header()` (rate limits, Set-Cookie, Retry-After), its own (ETag, Cache-Control) and the
 * security headers — and is marked complete, so that the middlewares leave it alone and the Node
 * adapter writes the record as it is. Any other answer goes through them as before.
 */
export interface AnswerHeaders {
  /** Defaults of the middlewares the request went through (X-Request-Id, Vary, Cache-Control). */
  defaults: Record<string, string>
  /** Set over everything else (the security headers), or null outside `securityHeaders`. */
  last: Record<string, string> | null
  /** What `c.header()` was asked before the answer, in order (lower-case names). */
  early: HeaderOp[] | null
}

type HeaderOp = [name: string, value: string | undefined, append: boolean]

const COMPLETE = Symbol('answer with plain headers')

/** Whether `res` was built by `plainAnswer` (the middlewares' headers are in it already). */
export function isCompleteAnswer(res: Response): boolean {
  return (res as Response & { [COMPLETE]?: true })[COMPLETE] === true
}

/**
 * Starts the request's record and notes every `c.header()` from here on, still set on Hono's own
 * headers too, so that any answer not built by `plainAnswer` is as it always was. A header set
 * before an answer must go through `c.header()`, never `c.res.headers` (the record would miss it).
 */
export function trackAnswerHeaders(c: Context<AppEnv>, defaults: Record<string, string>): void {
  const state: AnswerHeaders = { defaults, last: null, early: null }
  c.set('answerHeaders', state)
  const setHeader = c.header
  c.header = ((name: string, value?: string, options?: { append?: boolean }) => {
    state.early ??= []
    state.early.push([name.toLowerCase(), value, options?.append === true])
    setHeader(name, value as string, options)
  }) as typeof c.header
}

/**
 * An answer of `body` with `status` and `headers` (which override the defaults and the headers set
 * before), its headers in one plain record. Hono builds it as usual without a record started (an
 * app without `requestContext`) and for two Set-Cookie lines, which a record holds only as an
 * array that the Fetch `Headers` (a HEAD's answer, a middleware reading it) would join into one.
 */
export function plainAnswer(
  c: Context,
  body: string | Uint8Array | null,
  status: ContentfulStatusCode | 304,
  headers: Record<string, string>,
): Response {
  const state = (c as Context<AppEnv>).get('answerHeaders')
  const record = state && !c.finalized ? answerRecord(state, headers) : null
  if (!record) return c.body(body as string, status as ContentfulStatusCode, headers)
  const answer = new Response(body as BodyInit | null, { status, headers: record })
  ;(answer as Response & { [COMPLETE]?: true })[COMPLETE] = true
  return answer
}

/**
 * The answer's headers as one record of lower-case names, or null when it needs two Set-Cookie
 * lines: the defaults, then the headers set before, then `headers`, then the security headers.
 */
export function answerRecord(
  state: AnswerHeaders,
  headers: Record<string, string>,
): Record<string, string> | null {
  // Object.assign, not a spread: a spread of a record with many keys costs about a microsecond more.
  const record: Record<string, string> = Object.assign({}, state.defaults)
  if (state.early) {
    for (const [name, value, append] of state.early) {
      if (!apply(record, name, value, append)) return null
    }
  }
  for (const name in headers) apply(record, name.toLowerCase(), headers[name], false)
  if (state.last) {
    Object.assign(record, state.last)
    delete record['x-powered-by']
  }
  return record
}

/**
 * `Headers.set`, `append` and `delete` on a plain record of lower-case names (an appended header
 * joins the value with ", "); false for a second Set-Cookie line, which a record cannot hold.
 */
function apply(
  record: Record<string, string>,
  name: string,
  value: string | undefined,
  append: boolean,
): boolean {
  const current = record[name]
  if (value === undefined) delete record[name]
  else if (!append || current === undefined) record[name] = value
  else if (name === 'set-cookie') return false
  else record[name] = `${current}, ${value}`
  return true
}
