import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { COMPILE_RATE_LIMIT } from '../../../domain/prompt-variables.ts'
import type { Db } from '../../db/client.ts'
import { consumeRateLimit } from '../../rate-limit.ts'

/**
 * Counts a compile against the caller's user and, when a key made the request, that key; a 429
 * once either is spent. Counted before anything is looked up: a refused compile cost work too.
 */
export async function enforceCompileRate(db: Db, actor: Actor, multiplier: number): Promise<void> {
  const window = COMPILE_RATE_LIMIT.windowSeconds
  const checks = [
    consumeRateLimit(db, `compile:user:${actor.id}`, {
      window,
      max: COMPILE_RATE_LIMIT.perUser * multiplier,
    }),
  ]
  if (actor.apiKeyId) {
    checks.push(
      consumeRateLimit(db, `compile:key:${actor.apiKeyId}`, {
        window,
        max: COMPILE_RATE_LIMIT.perKey * multiplier,
      }),
    )
  }
  const refused = (await Promise.all(checks)).filter((result) => !result.allowed)
  if (refused.length === 0) return
  const retryAfter = Math.max(...refused.map((result) => result.retryAfter ?? window))
  throw new AppError('rate_limited', 'prompts.tooManyCompiles', {
    retryAfter,
    params: { seconds: retryAfter },
  })
}
