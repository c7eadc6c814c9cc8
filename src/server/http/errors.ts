import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { AppError, type ErrorBody } from '../../domain/errors.ts'
import { type Locale, translate } from '../../domain/messages/index.ts'
import {
  isDatabaseUnavailable,
  isStorageFailure,
  storageRetryAfter,
  unavailableRetryAfter,
} from '../db/unavailable.ts'
import type { AppEnv } from './env.ts'
import { jsonAnswer } from './json.ts'

export function errorBody(error: AppError, locale: Locale): ErrorBody {
  const { fields, params, retryAfter, reason, planLimit } = error.options
  return {
    error: {
      code: error.code,
      message: translate(locale, error.messageKey, params),
      ...(fields && {
        fields: Object.fromEntries(
          Object.entries(fields).map(([name, key]) => [name, translate(locale, key, params)]),
        ),
      }),
      ...(retryAfter !== undefined && { retryAfter }),
      ...(reason && { reason }),
      ...(planLimit && { planLimit }),
    },
  }
}

export function errorResponse(c: Context<AppEnv>, error: AppError): Response {
  const headers: Record<string, string> = {}
  if (error.options.retryAfter !== undefined) headers['Retry-After'] = String(error.options.retryAfter)
  return jsonAnswer(c, errorBody(error, c.get('locale') ?? 'en'), error.status as 400, headers)
}

/**
 * The one error handler: known application errors keep their kind; Hono's own HTTP errors (body
 * limit) become their kind; an unreachable database, or one that cannot write
 * (disk full, read-only data folder), is a 503 to retry; anything else is logged with the request id and answered as a bare 500.
 */
export function handleError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof AppError) return errorResponse(c, err)
  if (err instanceof HTTPException) {
    if (err.status === 413) return errorResponse(c, new AppError('payload_too_large'))
    if (err.status === 401) return errorResponse(c, new AppError('not_authenticated'))
    if (err.status === 400) return errorResponse(c, new AppError('validation'))
  }
  if (isDatabaseUnavailable(err)) {
    c.get('log')?.warn('database unavailable', { err, requestId: c.get('requestId') })
    return errorResponse(c, new AppError('transient', undefined, { retryAfter: unavailableRetryAfter }))
  }
  if (isStorageFailure(err)) {
    c.get('log')?.error('the database cannot write its files: free disk space or make DATA_DIR writable', {
      err,
      requestId: c.get('requestId'),
    })
    return errorResponse(c, new AppError('transient', 'error.storage', { retryAfter: storageRetryAfter }))
  }
  c.get('log')?.error('unhandled error', { err, requestId: c.get('requestId') })
  return errorResponse(c, new AppError('unexpected'))
}
