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

export function isDatabaseUnavailable(error: unknown): boolean {
  return someCause(
    error,
    ({ code, message }) =>
      (typeof code === 'string' && unavailableCodes.has(code)) ||
      (typeof message === 'string' && unavailableMessage.test(message)),
  )
}

/**
 * The database cannot write its files: the disk is full (53100), an I/O error (58030), or, on the
 * embedded database, a data folder that turned read-only ("could not open file …: Operation not
 * permitted", reported as 42501). Answered 503 with its own message: nothing is wrong with the
 * request, and the operator has to free space or make DATA_DIR writable again.
 */
export function isStorageFailure(error: unknown): boolean {
  return someCause(error, ({ code, message }) => {
    if (code === '53100' || code === '58030') return true
    return typeof message === 'string' && storageMessage.test(message)
  })
}

const storageMessage =
  /could not (open|create|write|extend|fsync)\b.*\bfile\b|no space left on device|read-only file system/i

/** Whether `test` holds for the error, one of its causes (drizzle wraps the driver's) or an AggregateError's errors. */
function someCause(
  error: unknown,
  test: (error: { code?: unknown; message?: unknown }) => boolean,
  depth = 0,
): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false
  if (test(error as { code?: unknown; message?: unknown })) return true
  if (error instanceof AggregateError && error.errors.some((e) => someCause(e, test, depth + 1))) return true
  return someCause((error as { cause?: unknown }).cause, test, depth + 1)
}

/** Seconds a client is asked to wait before trying again while the database is unreachable. */
export const unavailableRetryAfter = 5
/** The same while the database cannot write (freeing space takes a person). */
export const storageRetryAfter = 60
