import {
  type Operation,
  type OperationInput,
  type OperationOutput,
  operationUrl,
} from '../../domain/api/operation.ts'
import { type ErrorCode, isErrorBody } from '../../domain/errors.ts'
import type { PlanLimitDetails } from '../../domain/plans.ts'
import { currentLanguage, message } from '../i18n/index.ts'

/** An API failure, already in the user's language (the server localizes by Accept-Language). */
export class ApiError extends Error {
  readonly status: number
  readonly code: ErrorCode | 'network'
  readonly fields: Record<string, string>
  readonly retryAfter?: number
  readonly reason?: string
  /** With plan_limit: what the plan refused (the paywall shows it). */
  readonly planLimit?: PlanLimitDetails

  constructor(
    status: number,
    code: ErrorCode | 'network',
    text: string,
    extra: {
      fields?: Record<string, string>
      retryAfter?: number
      reason?: string
      planLimit?: PlanLimitDetails
    } = {},
  ) {
    super(text)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fields = extra.fields ?? {}
    this.retryAfter = extra.retryAfter
    this.reason = extra.reason
    this.planLimit = extra.planLimit
  }
}

type Query = Record<string, string | number | boolean | string[] | undefined | null>

interface RequestOptions {
  query?: Query
  body?: unknown
  signal?: AbortSignal
}

export function withQuery(path: string, query?: Query): string {
  if (!query) return path
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue
    if (Array.isArray(value)) for (const item of value) params.append(key, item)
    else params.append(key, String(value))
  }
  const text = params.toString()
  return text ? `${path}?${text}` : path
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  let response: Response
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      credentials: 'same-origin',
      signal: options.signal,
      headers: {
        Accept: 'application/json',
        'Accept-Language': currentLanguage(),
        ...(options.body !== undefined && { 'Content-Type': 'application/json' }),
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    })
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error
    throw new ApiError(0, 'network', message('error.network'))
  }
  const text = await response.text()
  let data: unknown = null
  try {
    data = text ? JSON.parse(text) : null
  } catch {
    // not JSON (e.g. a proxy's error page); handled below
  }
  if (response.ok) return data as T
  if (isErrorBody(data)) {
    const { code, message: text, fields, retryAfter, reason, planLimit } = data.error
    const headerRetry = Number(response.headers.get('retry-after'))
    return Promise.reject(
      new ApiError(response.status, code, text, {
        fields,
        retryAfter: retryAfter ?? (Number.isFinite(headerRetry) && headerRetry > 0 ? headerRetry : undefined),
        reason,
        planLimit,
      }),
    )
  }
  const code: ErrorCode = response.status >= 500 ? 'transient' : 'unexpected'
  throw new ApiError(
    response.status,
    code,
    message(code === 'transient' ? 'error.transient' : 'error.unexpected'),
  )
}

/**
 * Calls one declared API operation: its path filled in from `params`, `query` as the query string,
 * `body` as JSON. The answer is typed by the operation's response schema.
 */
export function callOperation<O extends Operation>(
  operation: O,
  input: OperationInput<O>,
  options: { signal?: AbortSignal } = {},
): Promise<OperationOutput<O>> {
  const { params, query, body } = input as { params?: Record<string, string>; query?: Query; body?: unknown }
  const { spec } = operation
  const hasBody = spec.method !== 'GET' && spec.method !== 'DELETE'
  return request<OperationOutput<O>>(spec.method, operationUrl(spec, params), {
    query,
    body: hasBody ? (body ?? {}) : undefined,
    signal: options.signal,
  })
}

/** Posts JSON to one of better-auth's own endpoints (`authLibraryPaths`), which are not our operations. */
export function postToAuthLibrary<T>(path: string, body: unknown = {}): Promise<T> {
  return request<T>('POST', path, { body })
}

/** The text to show for any error caught from a query or mutation. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.message || fallback
  return fallback
}
