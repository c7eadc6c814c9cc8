/**
 * Failures that say the database cannot be reached right now (down, restarting, out of
 * connections), as opposed to a query that is wrong. They are answered 503 with Retry-After: the
 * request may well succeed in a moment, and nothing about it was the caller's fault.
 */
const unavailableCodes = new Set([
  // Node's socket errors
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: connection exceptions, shutting down, starting up, too many connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
])

// node-postgres reports a dropped or timed-out connection by message only.
const unavailableMessage = /connection terminated|connection timeout|timeout exceeded when trying to connect/i

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown }
  if (typeof code === 'string' && unavailableCodes.has(code)) return true
  if (typeof message === 'string' && unavailableMessage.test(message)) return true
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))) {
    return true
  }
  // Drizzle wraps the driver's error in its own, with the original as `cause`.
  return isDatabaseUnavailable(cause, depth + 1)
}

/** Seconds a client is asked to wait before trying again while the database is unreachable. */
export const unavailableRetryAfter = 5
