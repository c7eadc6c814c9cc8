import type { MiddlewareHandler } from 'hono'
import { pickLocale } from '../../domain/messages/index.ts'
import type { Logger } from '../log.ts'
import { isCompleteAnswer, trackAnswerHeaders } from './answer-headers.ts'
import type { AppEnv } from './env.ts'

/** Request id, per-request logger, locale, and one structured log line per API request. */
export function requestContext(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const requestId = crypto.randomUUID()
    const start = performance.now()
    c.set('requestId', requestId)
    c.set('log', log.child({ requestId }))
    c.set('locale', pickLocale(c.req.header('accept-language')))
    trackAnswerHeaders(c, { 'x-request-id': requestId })
    await next()
    // A JSON answer carries it already; any other gets it here (set before, it would take the
    // Headers path for every answer).
    if (!isCompleteAnswer(c.res)) c.res.headers.set('X-Request-Id', requestId)
    if (c.req.path.startsWith('/api/'))
      logApiRequest(c.get('log'), c.req.method, c.req.path, c.res.status, start)
  }
}

/** The one log line of an API request (at info), its duration counted from `start`. */
export function logApiRequest(
  requestLog: Logger,
  method: string,
  path: string,
  status: number,
  start: number,
) {
  if (!requestLog.wants('info')) return
  requestLog.info('request', {
    method,
    path: loggablePath(path),
    status,
    ms: Math.round(performance.now() - start),
  })
}

/**
 * The request path as logs may keep it: an invitation link carries its secret token in the path
 * (`/api/v1/invitations/{token}`), which must not end up in log files.
 */
export function loggablePath(path: string): string {
  return path.replace(/^(\/api\/v1\/invitations\/)[^/]+/, '$1:token')
}
