import { eq } from 'drizzle-orm'
import type { Context, MiddlewareHandler } from 'hono'
import { AppError } from '../../../domain/errors.ts'
import { toCurrentUser } from '../../auth/session.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import type { ApiKeyPrincipal } from '../../core/principal.ts'
import type { Db } from '../../db/client.ts'
import { users } from '../../db/schema/index.ts'
import { clientAddress } from '../../http/client-address.ts'
import type { AppEnv } from '../../http/env.ts'
import { authenticateApiKey } from './service.ts'

/** X-RateLimit-* on every answer to a key; Retry-After and 429 once its window is used up. */
export function applyRateLimit(c: Context<AppEnv>, principal: ApiKeyPrincipal): void {
  const headers = rateLimitHeaders(principal)
  for (const name in headers) c.header(name, headers[name])
  const { retryAfter } = principal.rateLimit
  if (retryAfter !== null) throw new AppError('rate_limited', 'error.rateLimited', { retryAfter })
}

/** The key's window as every answer to it says it. */
export function rateLimitHeaders({ rateLimit }: ApiKeyPrincipal): Record<string, string> {
  return {
    'x-ratelimit-limit': String(rateLimit.limit),
    'x-ratelimit-remaining': String(rateLimit.remaining),
    'x-ratelimit-reset': String(rateLimit.resetAt),
  }
}

/**
 * A key the request authenticated, on the doors that speak for its space (the Langfuse routes, the
 * MCP server): its rate-limit headers (429 once its window is used up), its client address for the
 * audit log, and the principal on the context.
 */
export function admitKey(c: Context<AppEnv>, principal: ApiKeyPrincipal): void {
  applyRateLimit(c, principal)
  principal.clientAddress = clientAddress(c)
  c.set('apiKey', principal)
}

/**
 * `Authorization: Bearer sk-pf-…` on /api/v1: a personal key acts as its owner (prompt operations
 * only, the operations declared with `apiKeys`; read keys only read). Team keys serve the prompt API under
 * /api/public, which speaks for a team; /api/v1 speaks for a user, so they are refused here.
 * Requests without a Bearer header go on to the session cookie.
 */
export function bearerKeyAuth(
  db: Db,
  plans: PlanGate,
  multiplier: number,
  session: MiddlewareHandler<AppEnv>,
) {
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const header = c.req.header('authorization')
    if (!header?.startsWith('Bearer ')) return session(c, next)
    const principal = await authenticateApiKey(
      db,
      plans,
      header.slice('Bearer '.length).trim(),
      null,
      multiplier,
    )
    applyRateLimit(c, principal)
    if (principal.space.kind !== 'personal') throw new AppError('forbidden', 'apiKeys.notForThisRoute')
    const [user] = await db.select().from(users).where(eq(users.id, principal.space.userId))
    if (!user) throw new AppError('not_authenticated', 'apiKeys.invalid')
    c.set('user', toCurrentUser(user))
    c.set('sessionId', null)
    c.set('apiKey', principal)
    await next()
  }
  return middleware
}
