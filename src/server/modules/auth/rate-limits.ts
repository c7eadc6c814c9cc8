import { AppError } from '../../../domain/errors.ts'
import type { Db } from '../../db/client.ts'
import { addressGroup } from '../../http/client-address.ts'
import { consumeRateLimit, type RateLimitRule } from '../../rate-limit.ts'

interface ActionLimits {
  ip: RateLimitRule
  /** Absent where no account is known before the check (a reset link names none until it is used). */
  account?: RateLimitRule
  /**
   * At most one attempt per account in this many seconds, whatever RATE_LIMIT_MULTIPLIER says: it
   * paces mail to one address (like "resend in 60 s") rather than capping volume from one address.
   */
  cooldownSeconds?: number
}

const MINUTE = 60
const HOUR = 60 * MINUTE

/** Limits per action, per client address and per account (email). */
const limits = {
  // Per account these two count failures instead, per client and in total (failure-limits.ts).
  'sign-in': { ip: { window: 15 * MINUTE, max: 30 } },
  'sign-up': { ip: { window: HOUR, max: 10 }, account: { window: HOUR, max: 5 } },
  'code-send': {
    ip: { window: HOUR, max: 30 },
    account: { window: HOUR, max: 8 },
    cooldownSeconds: MINUTE,
  },
  'code-verify': { ip: { window: 15 * MINUTE, max: 50 } },
  'reset-request': {
    ip: { window: HOUR, max: 10 },
    account: { window: HOUR, max: 5 },
    cooldownSeconds: MINUTE,
  },
  // Per address only: a link's account is unknown until it is consumed, and one shared counter for
  // every link would let a single client block all resets. A link carries 24 random letters and digits
  // (about 143 bits); nobody guesses one.
  'recovery-verify': { ip: { window: 15 * MINUTE, max: 30 } },
  'direct-reset': { ip: { window: 15 * MINUTE, max: 20 }, account: { window: 15 * MINUTE, max: 5 } },
  'mail-test': { ip: { window: HOUR, max: 30 }, account: { window: HOUR, max: 10 } },
  // Deleting an account asks for the password or a mailed code: both are guessable secrets.
  'account-deletion': { ip: { window: 15 * MINUTE, max: 20 }, account: { window: 15 * MINUTE, max: 5 } },
  'deletion-code': {
    ip: { window: HOUR, max: 10 },
    account: { window: HOUR, max: 5 },
    cooldownSeconds: MINUTE,
  },
} satisfies Record<string, ActionLimits>

export type LimitedAction = keyof typeof limits

/**
 * Counts the attempt against each key; over any limit is a 429 with the seconds to wait.
 * `multiplier` (RATE_LIMIT_MULTIPLIER) raises the maxima for test suites that sign up hundreds of
 * users from one address; it never shortens a cooldown.
 */
export async function enforceRateLimits(
  db: Db,
  action: LimitedAction,
  who: { ip: string; account?: string },
  multiplier = 1,
) {
  const scaled = (rule: RateLimitRule) => ({ window: rule.window, max: rule.max * multiplier })
  const rules: ActionLimits = limits[action]
  const checks = [consumeRateLimit(db, `${action}:ip:${addressGroup(who.ip)}`, scaled(rules.ip))]
  if (rules.account && who.account !== undefined) {
    checks.push(consumeRateLimit(db, `${action}:account:${who.account}`, scaled(rules.account)))
  }
  if (rules.cooldownSeconds && who.account !== undefined) {
    checks.push(
      consumeRateLimit(db, `${action}:cooldown:${who.account}`, { window: rules.cooldownSeconds, max: 1 }),
    )
  }
  const results = await Promise.all(checks)
  const refused = results.filter((r) => !r.allowed)
  if (refused.length > 0) {
    const retryAfter = Math.max(...refused.map((r) => r.retryAfter ?? 1))
    // The mail flows show the wait (their forms count it down); the others the spec's general text.
    const messageKey = rules.cooldownSeconds ? 'auth.rateLimitWait' : 'auth.tooManyAttempts'
    throw new AppError('rate_limited', messageKey, { retryAfter, params: { seconds: retryAfter } })
  }
}
