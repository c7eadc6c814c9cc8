import { LOGIN_CODE_MAX_ATTEMPTS, LOGIN_CODE_TOTAL_ATTEMPTS } from '../../../domain/constants.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Db } from '../../db/client.ts'
import { addressGroup } from '../../http/client-address.ts'
import { countFailure, type FailureCount, forgetFailures, readFailures } from '../../rate-limit.ts'

/**
 * Limits on failed sign-ins that a stranger cannot turn against an account's owner.
 * Failures are counted per account and client pair: a client that keeps failing locks out only
 * itself, and a correct password (or code) from a client that has not failed still signs in. A
 * cap per account over all clients stops guessing spread over many addresses (NIST SP 800-63B
 * allows at most 100 failures in a row): past it, every client that has failed on the account is
 * locked out, and a client that has not gets one try — so the owner signing in from a new address
 * still gets in, while a guesser needs a fresh address (group) for every further guess. Past
 * CEILING_FACTOR times the cap, the action is locked for everyone until the window passes (the
 * other way in, code or password, is counted apart and stays open). For passwords each pair also
 * waits longer after every failure beyond the first few. The per-address limits of
 * rate-limits.ts apply as well.
 */
interface FailureRule {
  /** Seconds without a failure after which the counts start again. */
  window: number
  /** Failures one client may have on one account. Not scaled by RATE_LIMIT_MULTIPLIER. */
  perClient: number
  /** Failures on one account from all clients together (scaled by RATE_LIMIT_MULTIPLIER). */
  perAccount: number
  /** After this many failures of one pair, each further try waits 1, 2, 4 … seconds (at most 60). */
  freeFailures?: number
}

const MINUTE = 60
const MAX_DELAY_SECONDS = 60
/** Past this many times the account's cap, not even a client without failures may try. */
export const CEILING_FACTOR = 10

const rules = {
  'sign-in': { window: 15 * MINUTE, perClient: 10, perAccount: 100, freeFailures: 3 },
  // A code is 6 digits and lives 10 minutes; it dies after LOGIN_CODE_TOTAL_ATTEMPTS wrong tries.
  'code-verify': {
    window: 15 * MINUTE,
    perClient: LOGIN_CODE_MAX_ATTEMPTS,
    perAccount: LOGIN_CODE_TOTAL_ATTEMPTS,
  },
} satisfies Record<string, FailureRule>

export type GuardedAction = keyof typeof rules

interface Who {
  ip: string
  account: string
}

const pairKey = (action: GuardedAction, who: Who) => `${action}:failed:${addressGroup(who.ip)}:${who.account}`
const accountKey = (action: GuardedAction, who: Who) => `${action}:failed:${who.account}`

const secondsLeft = (until: number) => Math.max(1, Math.ceil((until - Date.now()) / 1000))

function delayAfter(rule: FailureRule, pair: FailureCount): number {
  if (rule.freeFailures === undefined || pair.count < rule.freeFailures) return 0
  return Math.min(2 ** (pair.count - rule.freeFailures), MAX_DELAY_SECONDS)
}

/** Refuses the attempt (429 with the seconds to wait) while this client or the account is locked. */
export async function assertMayTry(db: Db, action: GuardedAction, who: Who, multiplier = 1) {
  const rule: FailureRule = rules[action]
  const [pair, account] = await Promise.all([
    readFailures(db, pairKey(action, who), rule.window),
    readFailures(db, accountKey(action, who), rule.window),
  ])
  const messageKey = action === 'code-verify' ? 'auth.codeTooManyAttempts' : 'auth.tooManyAttempts'
  const cap = rule.perAccount * multiplier
  // The account's cap holds back the clients that have failed on it (a fresh one gets its try),
  // and everyone past the ceiling.
  const accountLimit = pair.count > 0 ? cap : cap * CEILING_FACTOR
  for (const [count, max] of [
    [pair, rule.perClient],
    [account, accountLimit],
  ] as const) {
    if (count.count >= max) {
      const retryAfter = secondsLeft(count.last + rule.window * 1000)
      throw new AppError('rate_limited', messageKey, { retryAfter, params: { seconds: retryAfter } })
    }
  }
  const waitUntil = pair.last + delayAfter(rule, pair) * 1000
  if (waitUntil > Date.now()) {
    const retryAfter = secondsLeft(waitUntil)
    throw new AppError('rate_limited', 'auth.rateLimitWait', { retryAfter, params: { seconds: retryAfter } })
  }
}

export async function recordFailure(db: Db, action: GuardedAction, who: Who) {
  const { window } = rules[action]
  await countFailure(db, pairKey(action, who), window)
  await countFailure(db, accountKey(action, who), window)
}

/** A success (or, for codes, a new code) gives the client its tries back; the account cap stays. */
export async function forgetClientFailures(db: Db, action: GuardedAction, who: Who) {
  await forgetFailures(db, pairKey(action, who))
}
