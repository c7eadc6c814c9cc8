import type { MiddlewareHandler } from 'hono'
import type { CurrentUser } from '../../domain/auth.ts'
import { SESSION_ABSOLUTE_SECONDS } from '../../domain/constants.ts'
import { AppError } from '../../domain/errors.ts'
import type { Auth } from '../auth/auth.ts'
import type { AppEnv, UserEnv } from './env.ts'

interface SessionUser {
  id: string
  email: string
  name: string
  role?: string | null
  createdAt: Date
}

export function toCurrentUser(user: SessionUser): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    globalRole: user.role === 'global_admin' ? 'global_admin' : 'user',
    createdAt: user.createdAt.toISOString(),
  }
}

/** Whether a session began longer ago than the absolute lifetime (however recently it was used). */
export function isPastAbsoluteLifetime(session: { createdAt: Date }, now = Date.now()): boolean {
  return now - session.createdAt.getTime() > SESSION_ABSOLUTE_SECONDS * 1000
}

/**
 * Resolves the session cookie to the signed-in user (or null). better-auth may extend the session
 * while reading it (the idle lifetime); its refreshed cookie is passed on to the response. A session
 * past the absolute lifetime is ended here, since better-auth only knows the idle one.
 */
export function loadSession(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let { headers, response } = await auth.api.getSession({
      headers: c.req.raw.headers,
      returnHeaders: true,
    })
    if (response && isPastAbsoluteLifetime(response.session)) {
      const context = await auth.$context
      await context.internalAdapter.deleteSession(response.session.token)
      response = null
      headers = new Headers()
    }
    c.set('user', response ? toCurrentUser(response.user) : null)
    c.set('sessionId', response?.session.id ?? null)
    await next()
    for (const cookie of headers.getSetCookie()) c.res.headers.append('Set-Cookie', cookie)
  }
}

/** Route groups built on this middleware only ever see a signed-in user. */
export const requireUser: MiddlewareHandler<UserEnv> = async (c, next) => {
  if (!c.get('user')) throw new AppError('not_authenticated')
  return next()
}

export const requireGlobalAdmin: MiddlewareHandler<UserEnv> = async (c, next) => {
  const user = c.get('user')
  if (!user) throw new AppError('not_authenticated')
  if (user.globalRole !== 'global_admin') throw new AppError('forbidden', 'error.globalAdminRequired')
  return next()
}
