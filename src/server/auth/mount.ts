import type { Context } from 'hono'
import { AppError } from '../../domain/errors.ts'
import { headersForAuth } from '../http/client-address.ts'
import type { AppEnv } from '../http/env.ts'
import { errorResponse } from '../http/errors.ts'
import { type Auth, isExposedAuthPath } from './auth.ts'
import { appErrorFromAuth } from './errors.ts'

/**
 * Passes the exposed part of /api/auth/* to better-auth (every other path is a JSON 404) and
 * rewrites its error answers into the app's one error shape, in the caller's language.
 */
export function authHandler(auth: Auth) {
  return async (c: Context<AppEnv>) => {
    const path = c.req.path.slice('/api/auth'.length)
    if (!isExposedAuthPath(path)) {
      throw new AppError('not_found', 'error.routeNotFound')
    }
    const response = await auth.handler(new Request(c.req.raw, { headers: headersForAuth(c) }))
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

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('application/json')
}
