import type { MiddlewareHandler } from 'hono'
import type { CurrentUser } from '../../domain/auth.ts'
import { SESSION_ABSOLUTE_SECONDS } from '../../domain/constants.ts'
import type { Auth } from '../auth/auth.ts'
import { headersForAuth } from './client-address.ts'
import type { AppEnv } from './env.ts'

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
 * while reading it (the idle lifetime) or clear a cookie that names no session; those cookies are
 * passed on to the response unless the route set the same cookie. A session
 * past the absolute lifetime is ended here, since better-auth only knows the idle one.
 */
export function loadSession(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let { headers, response } = await auth.api.getSession({
      headers: headersForAuth(c),
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
    // A route that signed someone in has set the session cookie itself; reading the stale one
    // (e.g. right after a reset) produced a deletion that, sent after it, would sign them out again.
    const setByRoute = new Set(c.res.headers.getSetCookie().map(cookieName))
    for (const cookie of headers.getSetCookie()) {
      if (!setByRoute.has(cookieName(cookie))) c.res.headers.append('Set-Cookie', cookie)
    }
  }
}

const cookieName = (setCookie: string) => setCookie.slice(0, setCookie.indexOf('='))
