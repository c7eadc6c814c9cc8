import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { signInInput, signUpInput } from '../../../domain/auth.ts'
import type { Auth } from '../../auth/auth.ts'
import { rethrowAuthError } from '../../auth/errors.ts'
import type { Db } from '../../db/client.ts'
import { users } from '../../db/schema/index.ts'
import { clientIp } from '../../http/context.ts'
import type { AppEnv } from '../../http/env.ts'
import { jsonBody } from '../../http/input.ts'
import { toCurrentUser } from '../../http/session.ts'
import { enforceRateLimits } from './rate-limits.ts'

/**
 * Password sign-up and sign-in: the spec's validation (repeat password, terms) and per-IP and
 * per-account rate limits in front of better-auth, which creates the user and the session cookie.
 */
export function passwordAuthRoutes(deps: { auth: Auth; db: Db; rateLimitMultiplier: number }) {
  const { auth, db, rateLimitMultiplier } = deps
  return new Hono<AppEnv>()
    .post('/sign-up', async (c) => {
      const input = await jsonBody(c, signUpInput)
      await enforceRateLimits(db, 'sign-up', { ip: clientIp(c), account: input.email }, rateLimitMultiplier)
      const result = await auth.api
        .signUpEmail({
          body: { email: input.email, password: input.password, name: '' },
          headers: c.req.raw.headers,
          returnHeaders: true,
        })
        .catch(rethrowAuthError)
      for (const cookie of result.headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true })
      // Re-read: the first account's global role is granted by a hook after the sign-up commits.
      const [user] = await db.select().from(users).where(eq(users.id, result.response.user.id))
      return c.json({ user: toCurrentUser(user ?? result.response.user) }, 201)
    })
    .post('/sign-in', async (c) => {
      const input = await jsonBody(c, signInInput)
      await enforceRateLimits(db, 'sign-in', { ip: clientIp(c), account: input.email }, rateLimitMultiplier)
      const result = await auth.api
        .signInEmail({
          body: { email: input.email, password: input.password, rememberMe: true },
          headers: c.req.raw.headers,
          returnHeaders: true,
        })
        .catch(rethrowAuthError)
      for (const cookie of result.headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true })
      return c.json({ user: toCurrentUser(result.response.user) })
    })
}
