import { isAPIError } from 'better-auth/api'
import { AppError, type ErrorCode } from '../../domain/errors.ts'
import type { MessageKey } from '../../domain/messages/index.ts'

/** better-auth's error codes that users meet, in the app's kinds and catalog keys. */
const knownAuthErrors: Record<string, [ErrorCode, MessageKey]> = {
  INVALID_EMAIL_OR_PASSWORD: ['not_authenticated', 'auth.invalidCredentials'],
  USER_ALREADY_EXISTS: ['conflict', 'auth.emailTaken'],
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: ['conflict', 'auth.emailTaken'],
  PASSWORD_TOO_SHORT: ['validation', 'validation.passwordMin'],
  PASSWORD_TOO_LONG: ['validation', 'validation.passwordMax'],
  INVALID_EMAIL: ['validation', 'validation.emailInvalid'],
  INVALID_PASSWORD: ['validation', 'validation.passwordRequired'],
  INVALID_OTP: ['validation', 'auth.codeInvalid'],
  OTP_EXPIRED: ['validation', 'auth.codeExpired'],
  TOO_MANY_ATTEMPTS: ['validation', 'auth.codeTooManyAttempts'],
  INVALID_TOKEN: ['validation', 'auth.resetLinkInvalid'],
}

function codeOfStatus(status: number): ErrorCode {
  if (status === 400 || status === 422) return 'validation'
  if (status === 401) return 'not_authenticated'
  if (status === 403) return 'forbidden'
  if (status === 404) return 'not_found'
  if (status === 409) return 'conflict'
  if (status === 413) return 'payload_too_large'
  if (status === 429) return 'rate_limited'
  if (status === 503) return 'transient'
  // Any other refusal of the request (405 wrong method, 415 not JSON...) is the caller's, not ours.
  if (status >= 400 && status < 500) return 'validation'
  return 'unexpected'
}

/** Turns a better-auth error (status + `{ code, message }`) into the app's error. */
export function appErrorFromAuth(
  status: number,
  body: { code?: string } | null,
  retryAfter?: number,
): AppError {
  const known = body?.code ? knownAuthErrors[body.code] : undefined
  if (known) return new AppError(known[0], known[1], { reason: body?.code })
  const code = codeOfStatus(status)
  if (code === 'rate_limited')
    return new AppError(code, 'auth.tooManyAttempts', { retryAfter: retryAfter ?? 60 })
  return new AppError(code, undefined, body?.code ? { reason: body.code } : {})
}

/** For errors thrown by `auth.api.*` calls made by the app's own routes. */
export function rethrowAuthError(error: unknown): never {
  if (isAPIError(error)) {
    throw appErrorFromAuth(error.statusCode, (error.body ?? null) as { code?: string } | null)
  }
  throw error
}
