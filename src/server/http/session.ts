import type { MiddlewareHandler } from 'hono'
import type { CurrentUser } from '../../domain/auth.ts'
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

/**
 * Resolves the session cookie to the signed-in user (or null). better-auth may extend the session
 * while reading it; its refreshed cookie is passed on to the response.
 */
export function loadSession(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { headers, response } = await auth.api.getSession({
      headers: c.req.raw.headers,
      returnHeaders: true,
    })
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
