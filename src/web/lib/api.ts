import { type OperationAddress, operationUrl, type Query, withQuery } from '../../domain/api/address.ts'
import type { Operation, OperationInput, OperationOutput } from '../../domain/api/operation.ts'
import { type ErrorCode, isErrorBody } from '../../domain/errors.ts'
import type { PlanLimitDetails } from '../../domain/plans.ts'
import { currentLanguage, message } from '../i18n/index.ts'
import { debugLog } from './debug-log.ts'
import { takeFirstRead } from './first-reads.ts'

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

interface RequestOptions {
  query?: Query
  body?: unknown
  signal?: AbortSignal
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  let response: Response
  const url = withQuery(path, options.query)
  // A first read of the page's (lib/first-reads.ts): the same request, already on its way.
  const started =
    method === 'GET' && !options.signal?.aborted ? takeFirstRead(url, currentLanguage()) : undefined
  try {
    response = await (started ??
      fetch(url, {
        method,
        credentials: 'same-origin',
        signal: options.signal,
        headers: {
          Accept: 'application/json',
          'Accept-Language': currentLanguage(),
          ...(options.body !== undefined && { 'Content-Type': 'application/json' }),
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      }))
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error
    debugLog.error(`${method} ${path}: network error (${(error as Error).message})`)
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
  const error = errorOf(response.status, data, response.headers.get('retry-after'))
  // The path without its query: searches are the user's words, not what went wrong.
  debugLog[error.status >= 500 ? 'error' : 'warn'](
    `${method} ${path} → ${error.status} ${error.code}: ${error.message}`,
  )
  throw error
}

/** The ApiError of an error answer (its body, when it is our error shape, else by status). */
export function errorOf(status: number, data: unknown, retryAfterHeader: string | null): ApiError {
  if (isErrorBody(data)) {
    const { code, message: text, fields, retryAfter, reason, planLimit } = data.error
    const headerRetry = Number(retryAfterHeader)
    return new ApiError(status, code, text, {
      fields,
      retryAfter: retryAfter ?? (Number.isFinite(headerRetry) && headerRetry > 0 ? headerRetry : undefined),
      reason,
      planLimit,
    })
  }
  const code: ErrorCode = status >= 500 ? 'transient' : 'unexpected'
  return new ApiError(status, code, message(code === 'transient' ? 'error.transient' : 'error.unexpected'))
}

declare const declaredAs: unique symbol

/**
 * An operation known by its address alone, typed by its declaration `O`: what a page calls when it
 * must not download the schemas (the sign-in pages, decision 0220). Made by `operationRefs`.
 */
interface OperationRef<O extends Operation> {
  readonly id: string
  readonly group: string
  readonly name: string
  readonly spec: OperationAddress
  /** Never set: the declaration this stands for, which types its input and answer. */
  readonly [declaredAs]?: O
}

/** What the client calls: an operation's declaration, or its address (`OperationRef`). */
export type Callable<O extends Operation> = O | OperationRef<O>

type OperationsOf<G> = { [K in keyof G as G[K] extends Operation ? K : never]: G[K] }
type AddressOf<O> = O extends Operation ? Pick<O['spec'], 'method' | 'path'> : never

/**
 * The operations of the group declared as `G` (`typeof authOperations`), from a table of their
 * addresses: each address must be its declaration's method and path, to the letter.
 */
export function operationRefs<G>(
  group: string,
  addresses: { [K in keyof OperationsOf<G>]: AddressOf<OperationsOf<G>[K]> },
): { [K in keyof OperationsOf<G>]: OperationRef<OperationsOf<G>[K] & Operation> } {
  return Object.fromEntries(
    Object.entries(addresses as Record<string, OperationAddress>).map(([name, spec]) => [
      name,
      { id: `${group}.${name}`, group, name, spec },
    ]),
  ) as never
}

/**
 * Calls one declared API operation: its path filled in from `params`, `query` as the query string,
 * `body` as JSON. The answer is typed by the operation's response schema.
 */
export function callOperation<O extends Operation>(
  operation: Callable<O>,
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
