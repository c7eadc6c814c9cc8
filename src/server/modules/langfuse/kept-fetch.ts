import type { IncomingMessage, ServerResponse } from 'node:http'
import { langfuseOperations } from '../../../domain/api/langfuse.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import type { ApiKeyPrincipal } from '../../core/principal.ts'
import type { Db } from '../../db/client.ts'
import { answerRecord } from '../../http/answer-headers.ts'
import { API_ANSWER_DEFAULTS } from '../../http/api-answers.ts'
import { logApiRequest } from '../../http/context.ts'
import { keptQuery } from '../../http/input.ts'
import { jsonRepresentation } from '../../http/json.ts'
import type { Lane } from '../../http/node-server.ts'
import { securityHeaderRecord } from '../../http/security.ts'
import type { Logger } from '../../log.ts'
import { keyCredentialsOf, rateLimitHeaders } from '../api-keys/index.ts'
import { fetchAnswerHeaders, isNotModified, unexpectedErrorBody } from './routes.ts'
import { type FetchedAnswer, keptLangfuseAnswer } from './service.ts'

const FETCH_PATH = '/api/public/v2/prompts/'
const fetchQuery = langfuseOperations.get.spec.query
/**
 * The request lines and Host headers the Node adapter passes to Hono as they are: its own patterns,
 * plus percent-encoding, which `new URL` leaves alone among these characters, and any port (its
 * pattern takes 1000–59999 only, and checks the others with `new URL`, which takes them all). It
 * rewrites anything else through `new URL` (dot segments, a backslash) or refuses it, and so does
 * the lane, by leaving it to the route. No '#' either: Hono's path and query end there.
 */
const PLAIN_TARGET = /^\/[!$%&-;=?-[\]_a-z~]*$/
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[0-5]?\d{1,4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5]))?$/

/**
 * The runtime fetch answered before the framework when this process keeps everything it needs
 * (decision 0279): the key (`GET /api/public/v2/prompts/{name}` with a Basic key pair), the found
 * answer, and the query as the route parsed it before. Hono's routing, context and middleware chain
 * cost more server CPU than the fetch's own work (`npm run bench:runtime-cache`); the SDKs fetch the
 * same few prompts all the time, so nearly every fetch is such a one. The answer is the route's,
 * built by the same functions: its headers (the API's defaults, the key's window, ETag and caching,
 * the security headers), gzip, 304 on If-None-Match, the request's log line. Anything else (another
 * path, a missing or refused key, an answer not kept, a key past its window, a query not seen yet)
 * goes to the route untouched, and so does a request whose lookup fails. Once the request is
 * counted in the key's window it is the lane's: an error after that is answered with the route's
 * 500 (`unexpectedErrorBody`), since the route would count the request again.
 */
export function keptFetchLane(deps: {
  db: Db
  plans: PlanGate
  rateLimitMultiplier: number
  log: Logger
  appUrl: string
  /** Whether the process is shutting down: the answer then closes its connection, as the route's does. */
  closing: () => boolean
}): Lane {
  const security = securityHeaderRecord(deps.appUrl)
  return (req, res) => {
    const url = req.url
    const authorization = req.headers.authorization
    if (
      req.method !== 'GET' ||
      !url?.startsWith(FETCH_PATH) ||
      !authorization?.startsWith('Basic ') ||
      !PLAIN_TARGET.test(url) ||
      !PLAIN_HOST.test(req.headers.host ?? '') ||
      authorizationLines(req.rawHeaders) !== 1
    ) {
      return false
    }
    return answer(req, res, url, authorization).catch((error: unknown) => {
      // A lane never rejects: the server would have no answer for the request.
      try {
        deps.log.error('the kept-fetch lane failed', { err: error })
      } catch {}
      // Thrown before the request was counted (`respond` answers every error after): nothing is
      // written yet, and the route answers it, and counts it.
      return false
    })
  }

  async function answer(req: IncomingMessage, res: ServerResponse, url: string, authorization: string) {
    const start = performance.now()
    const queryAt = url.indexOf('?')
    const path = queryAt < 0 ? url : url.slice(0, queryAt)
    const segment = path.slice(FETCH_PATH.length)
    // One path segment, as the route's `:name` takes it (a name's slashes come as %2F); not one that
    // `new URL` would take for a dot segment.
    if (segment === '' || segment.includes('/')) return false
    const name = decodedSegment(segment)
    if (name === null || name === '.' || name === '..') return false
    const query = keptQuery(fetchQuery, queryAt < 0 ? '' : url.slice(queryAt + 1))
    const credentials = keyCredentialsOf(authorization)
    if (!query || credentials?.kind !== 'basic') return false
    const selector = { version: query.version, label: query.label }
    const kept = await keptLangfuseAnswer(
      deps.db,
      deps.plans,
      {
        secret: credentials.secret,
        publicKey: credentials.publicKey,
        rateLimitMultiplier: deps.rateLimitMultiplier,
      },
      name,
      selector,
      query.resolve !== 'false',
    )
    if (!kept) return false
    try {
      return respond(req, res, path, selector, kept, start)
    } catch (error) {
      // What `respond` could not answer (its own 500 or its log line failed): counted already, so
      // never the route's.
      if (!res.writableEnded) res.destroy(error as Error)
      return true
    }
  }

  /**
   * The answer to a request counted in its key's window. Whatever fails in building or writing it
   * is answered here, never left to the route, which would count the request a second time (and
   * could answer otherwise): before the answer began, with the route's 500; after, by closing the
   * connection.
   */
  function respond(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    selector: { version?: number },
    kept: { principal: ApiKeyPrincipal; answer: FetchedAnswer },
    start: number,
  ): true {
    const requestId = crypto.randomUUID()
    const state = {
      defaults: Object.assign({ 'x-request-id': requestId }, API_ANSWER_DEFAULTS),
      early: null,
      last: security,
    }
    let status: number
    try {
      const own = Object.assign(
        rateLimitHeaders(kept.principal),
        fetchAnswerHeaders(selector, kept.answer.etag),
      )
      // Asked as the answer is written: a shutdown may have begun while the key was checked.
      if (deps.closing()) res.shouldKeepAlive = false
      if (isNotModified(req.headers['if-none-match'], kept.answer.etag)) {
        status = 304
        write(res, status, answerRecord(state, own)!)
      } else {
        status = 200
        const representation = jsonRepresentation(
          kept.answer.body,
          'GET',
          req.headers['accept-encoding'],
          own,
        )
        write(res, status, answerRecord(state, representation.headers)!, representation.body)
      }
    } catch (error) {
      status = 500
      const body = JSON.stringify(unexpectedErrorBody(error, deps.log, requestId))
      try {
        if (res.headersSent) throw error
        const representation = jsonRepresentation(
          body,
          'GET',
          req.headers['accept-encoding'],
          rateLimitHeaders(kept.principal),
        )
        write(res, status, answerRecord(state, representation.headers)!, representation.body)
      } catch (unwritten) {
        // Begun, or not writable: it cannot be answered whole.
        if (!res.writableEnded) res.destroy(unwritten as Error)
      }
    }
    // Asked first, so that no child logger is made for a line that is not written.
    if (deps.log.wants('info')) logApiRequest(deps.log.child({ requestId }), 'GET', path, status, start)
    return true
  }
}

function write(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body?: string | Uint8Array,
) {
  res.writeHead(status, headers)
  res.end(body)
}

/** The segment as Hono decodes a path parameter, or null for a malformed percent-encoding (which it keeps as sent). */
function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

/**
 * How many Authorization lines the request has: Node keeps the first, the adapter joins them all
 * with ", ", so with two the lane and the route could read different key pairs.
 */
function authorizationLines(rawHeaders: string[]): number {
  let lines = 0
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.length === 13 && rawHeaders[i]!.toLowerCase() === 'authorization') lines++
  }
  return lines
}
