import type { Context } from 'hono'
import { AppError } from '../../domain/errors.ts'
import type { Database } from '../db/client.ts'
import { unavailableRetryAfter } from '../db/unavailable.ts'
import { headersForAuth } from '../http/client-address.ts'
import type { AppEnv } from '../http/env.ts'
import { errorResponse } from '../http/errors.ts'
import { type Auth, isExposedAuthPath } from './auth.ts'
import { appErrorFromAuth } from './errors.ts'
import { heardOwnWrites } from './session.ts'

/**
 * Passes the exposed part of /api/auth/* to better-auth (every other path is a JSON 404) and
 * rewrites its error answers into the app's one error shape, in the caller's language. Answers once
 * this process has heard what better-auth committed (`heardOwnWrites`).
 */
export function authHandler(auth: Auth, database: Pick<Database, 'ping' | 'db'>) {
  return async (c: Context<AppEnv>) => {
    const path = c.req.path.slice('/api/auth'.length)
    if (!isExposedAuthPath(path)) {
      throw new AppError('not_found', 'error.routeNotFound')
    }
    const response = await auth.handler(new Request(c.req.raw, { headers: headersForAuth(c) }))
    // Any of these may end or make sessions or change a user (a GET too: a provider's callback).
    await heardOwnWrites(database.db)
    // better-auth answers its own failures as a bare 500, and a sign-out whose session it could not
    // delete as a success (clearing only the cookie); when the database is the cause, say so, and
    // keep the cookie so that the sign-out can be retried and really ends the session.
    if (
      (response.status >= 500 || (path === '/sign-out' && response.status < 400)) &&
      !(await reachable(database))
    ) {
      return errorResponse(c, new AppError('transient', undefined, { retryAfter: unavailableRetryAfter }))
    }
    if (response.status < 400) return response
    let body: { code?: string } | null = null
    if (isJson(response)) body = (await response.json().catch(() => null)) as { code?: string } | null
    const retryAfter = Number(response.headers.get('x-retry-after') ?? Number.NaN)
    const mapped = errorResponse(
      c,
      appErrorFromAuth(response.status, body, Number.isFinite(retryAfter) ? retryAfter : undefined),
    )
    for (const cookie of response.headers.getSetCookie()) mapped.headers.append('Set-Cookie', cookie)
    return mapped
  }
}

function reachable(database: Pick<Database, 'ping'>): Promise<boolean> {
  return database.ping().then(
    () => true,
    () => false,
  )
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('application/json')
}
