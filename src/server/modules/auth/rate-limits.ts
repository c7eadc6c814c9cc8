import { AppError } from '../../../domain/errors.ts'
import type { Db } from '../../db/client.ts'
import { consumeRateLimit, type RateLimitRule } from '../../rate-limit.ts'

/** Limits per action, per client address and per account (email). */
const limits = {
  'sign-in': { ip: { window: 15 * 60, max: 30 }, account: { window: 15 * 60, max: 10 } },
  'sign-up': { ip: { window: 60 * 60, max: 10 }, account: { window: 60 * 60, max: 5 } },
} satisfies Record<string, { ip: RateLimitRule; account: RateLimitRule }>

export type LimitedAction = keyof typeof limits

/**
 * Counts the attempt against both keys; over either limit is a 429 with the seconds to wait.
 * `multiplier` (RATE_LIMIT_MULTIPLIER) raises the maxima for test suites that sign up hundreds of
 * users from one address.
 */
export async function enforceRateLimits(
  db: Db,
  action: LimitedAction,
  who: { ip: string; account: string },
  multiplier = 1,
) {
  const scaled = (rule: RateLimitRule) => ({ window: rule.window, max: rule.max * multiplier })
  const rules = limits[action]
  const results = await Promise.all([
    consumeRateLimit(db, `${action}:ip:${who.ip}`, scaled(rules.ip)),
    consumeRateLimit(db, `${action}:account:${who.account}`, scaled(rules.account)),
  ])
  const refused = results.filter((r) => !r.allowed)
  if (refused.length > 0) {
    const retryAfter = Math.max(...refused.map((r) => r.retryAfter ?? 1))
    throw new AppError('rate_limited', 'auth.tooManyAttempts', { retryAfter })
  }
}
