import type { MessageKey, MessageParams } from './messages/index.ts'
import type { PlanLimitDetails } from './plans.ts'

/** The spec's error kinds plus the two transport-level ones an HTTP API needs. */
export const errorStatus = {
  validation: 400,
  not_authenticated: 401,
  forbidden: 403,
  /** A plan's limit, trial end or missing feature refused the action. */
  plan_limit: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unexpected: 500,
  /** A model provider (an API the server calls for the user) failed or refused; the message says how. */
  upstream: 502,
  transient: 503,
} as const

export type ErrorCode = keyof typeof errorStatus

export const defaultMessageOf: Record<ErrorCode, MessageKey> = {
  validation: 'error.validation',
  not_authenticated: 'error.notAuthenticated',
  forbidden: 'error.forbidden',
  plan_limit: 'plans.paymentRequired',
  not_found: 'error.notFound',
  conflict: 'error.conflict',
  payload_too_large: 'error.payloadTooLarge',
  rate_limited: 'error.rateLimited',
  unexpected: 'error.unexpected',
  upstream: 'error.upstream',
  transient: 'error.transient',
}

export interface AppErrorOptions {
  params?: MessageParams
  /** Field name → message key, for validation errors shown next to a form field. */
  fields?: Record<string, MessageKey>
  /** Seconds until a rate-limited caller may try again. */
  retryAfter?: number
  /** A machine-readable detail for clients that need more than the code (e.g. 'stale_version'). */
  reason?: string
  /** With plan_limit: what refused it (context, reason, resource, used, max). */
  planLimit?: PlanLimitDetails
}

/**
 * Before an error's `super(...)`: a refusal (4xx) is an answer, not a fault. Its stack is never
 * shown (a background job that logs one logs its message and code), and capturing it was a fifth
 * of the server's CPU for a refused request. Answers the limit to put back right after `super`.
 */
export function suspendStackTraceFor(status: number): number {
  const limit = Error.stackTraceLimit
  if (status < 500) Error.stackTraceLimit = 0
  return limit
}

/**
 * The one application error: a kind, a message key from the shared catalogs, and optional details.
 * The server turns it into `{ error: { code, message, fields } }` in the caller's language.
 */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly messageKey: MessageKey
  readonly options: AppErrorOptions

  constructor(
    code: ErrorCode,
    messageKey: MessageKey = defaultMessageOf[code],
    options: AppErrorOptions = {},
  ) {
    const stackTraceLimit = suspendStackTraceFor(errorStatus[code])
    super(messageKey)
    Error.stackTraceLimit = stackTraceLimit
    this.name = 'AppError'
    this.code = code
    this.messageKey = messageKey
    this.options = options
  }

  get status(): number {
    return errorStatus[this.code]
  }
}

/** The JSON body of every error answer. */
export interface ErrorBody {
  error: {
    code: ErrorCode
    message: string
    fields?: Record<string, string>
    retryAfter?: number
    reason?: string
    planLimit?: PlanLimitDetails
  }
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false
  const error = (value as { error: unknown }).error
  return typeof error === 'object' && error !== null && 'code' in error && 'message' in error
}
