import { AppError } from '../../domain/errors.ts'
import type { Db } from '../db/client.ts'
import { enforceRateLimits, type LimitedAction } from '../modules/auth/rate-limits.ts'

/**
 * Spends the budget of `action` through the counters the routes use (without the cost of hashing a
 * password per attempt) until the next attempt would be refused. `who(n)` is the n-th attempt's
 * client address and account.
 */
export async function exhaustRateLimit(
  db: Db,
  action: LimitedAction,
  who: (attempt: number) => { ip: string; account?: string },
) {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      await enforceRateLimits(db, action, who(attempt), 1)
    } catch (error) {
      if (error instanceof AppError && error.code === 'rate_limited') return
      throw error
    }
  }
  throw new Error(`${action} was never limited`)
}
