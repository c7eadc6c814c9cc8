import type { MiddlewareHandler } from 'hono'
import { compress } from 'hono/compress'
import { isCompleteAnswer } from './answer-headers.ts'
import type { AppEnv } from './env.ts'

const nothingMore = async () => {}

/** The headers every API answer has unless it sets its own (lower-case names, as a record holds them). */
export const API_ANSWER_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  vary: 'Accept-Encoding',
  'cache-control': 'no-store',
})

/**
 * What every API answer says unless it says otherwise: it varies with Accept-Encoding, and it is
 * never stored (the prompt API sets its own Cache-Control for ETag revalidation). A JSON answer
 * built with plain headers takes them from the request's record; any other gets them once it
 * exists, on its own headers: through c.header() that makes Hono rebuild it with its body as a
 * stream, which the Node adapter then pipes (a third of a small answer's CPU). Then Hono's
 * compress() for the answers not built by `jsonText` (which gzips its own at once), so that it
 * finds the Vary it would otherwise add with c.header(); a complete JSON answer never has its
 * headers read. One middleware for both: each layer costs every request a promise.
 */
export function apiAnswers(): MiddlewareHandler<AppEnv> {
  const compressAnswer = compress()
  return async (c, next) => {
    const answerHeaders = c.get('answerHeaders')
    if (answerHeaders) Object.assign(answerHeaders.defaults, API_ANSWER_DEFAULTS)
    await next()
    if (isCompleteAnswer(c.res)) return
    const headers = c.res.headers
    for (const name in API_ANSWER_DEFAULTS) {
      if (!headers.has(name)) headers.set(name, API_ANSWER_DEFAULTS[name]!)
    }
    await compressAnswer(c, nothingMore)
  }
}
