import { type OperationAddress, operationUrl, type Query, withQuery } from '../../domain/api/address.ts'
import type { Operation, OperationInput, OperationOutput } from '../../domain/api/operation.ts'
import { type ErrorCode, isErrorBody } from '../../domain/errors.ts'
import type { PlanLimitDetails } from '../../domain/plans.ts'
import { currentLanguage, message } from '../i18n/index.ts'
import { debugLog } from './debug-log.ts'

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
function errorOf(status: number, data: unknown, retryAfterHeader: string | null): ApiError {
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

/** How far a long call is: the request's bytes sent, then the server's own count (prompts done). */
export type CallProgress = { phase: 'upload' | 'server'; done: number; total: number }

const PROGRESS_TYPE = 'application/x-ndjson'

/**
 * Reads the complete lines of an NDJSON text from `from` on: each progress line goes to
 * `onProgress`, any other line is kept as the last. Answers where the next line starts.
 */
export function readProgressLines(
  text: string,
  from: number,
  onProgress: (progress: CallProgress) => void,
  onLast: (line: Record<string, unknown>) => void,
): number {
  let start = from
  for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
    const line = JSON.parse(text.slice(start, end)) as Record<string, unknown>
    start = end + 1
    const progress = line.progress as { done: number; total: number } | undefined
    if (progress) onProgress({ phase: 'server', done: progress.done, total: progress.total })
    else onLast(line)
  }
  return start
}

/**
 * `callOperation` for an operation that `streamsProgress` (the import): through XMLHttpRequest, so
 * the upload's progress is known too, asking for NDJSON progress lines; the last line is the
 * answer or the error. An error before the work starts (validation, 413) comes as plain JSON.
 */
export function callOperationWithProgress<O extends Operation>(
  operation: O,
  input: OperationInput<O>,
  onProgress: (progress: CallProgress) => void,
): Promise<OperationOutput<O>> {
  const { params, query, body } = input as { params?: Record<string, string>; query?: Query; body?: unknown }
  const { spec } = operation
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open(spec.method, withQuery(operationUrl(spec, params), query))
    xhr.setRequestHeader('Accept', `${PROGRESS_TYPE}, application/json`)
    xhr.setRequestHeader('Accept-Language', currentLanguage())
    xhr.setRequestHeader('Content-Type', 'application/json')
    let read = 0
    let last: Record<string, unknown> | null = null
    const streaming = () => xhr.getResponseHeader('Content-Type')?.startsWith(PROGRESS_TYPE) ?? false
    const readLines = () => {
      read = readProgressLines(xhr.responseText, read, onProgress, (line) => {
        last = line
      })
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ phase: 'upload', done: event.loaded, total: event.total })
    }
    xhr.onprogress = () => {
      if (xhr.status === 200 && streaming()) readLines()
    }
    xhr.onload = () => {
      try {
        if (xhr.status === 200 && streaming()) {
          readLines()
          const answer = last as { result?: unknown; status?: number } | null
          if (answer && 'result' in answer) resolve(answer.result as OperationOutput<O>)
          else reject(errorOf(answer?.status ?? 500, answer, null))
          return
        }
        const data = xhr.responseText ? JSON.parse(xhr.responseText) : null
        if (xhr.status >= 200 && xhr.status < 300) resolve(data as OperationOutput<O>)
        else reject(errorOf(xhr.status, data, xhr.getResponseHeader('Retry-After')))
      } catch {
        reject(errorOf(Math.max(xhr.status, 500), null, null))
      }
    }
    xhr.onerror = () => reject(new ApiError(0, 'network', message('error.network')))
    xhr.send(JSON.stringify(body ?? {}))
  })
}

/** One server-sent event: its name (`message` when none is given) and its data lines joined. */
type ServerEvent = { event: string; data: string }

/**
 * Reads the complete events of a `text/event-stream` text from `from` on (each ends with a blank
 * line; `event:` and `data:` fields; a block without data is skipped). Answers the events and where the next starts.
 */
export function readServerEvents(text: string, from: number): { events: ServerEvent[]; next: number } {
  const events: ServerEvent[] = []
  let start = from
  for (let end = text.indexOf('\n\n', start); end !== -1; end = text.indexOf('\n\n', start)) {
    let event = 'message'
    const data: string[] = []
    for (const line of text.slice(start, end).split('\n')) {
      const colon = line.indexOf(':')
      if (colon === 0) continue
      const field = colon === -1 ? line : line.slice(0, colon)
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'event') event = value
      else if (field === 'data') data.push(value)
    }
    // As browsers do: a block without data (a comment, a keep-alive) is no event.
    if (data.length > 0) events.push({ event, data: data.join('\n') })
    start = end + 2
  }
  return { events, next: start }
}

/**
 * `callOperation` for an operation that `streamsText` (a prompt's run): asks for server-sent events
 * and hands each `text` event's piece to `onText` as it arrives; resolves with the `result` event,
 * rejects with the `error` event as an ApiError. An error before the stream starts (validation,
 * 429) comes as plain JSON. `signal` stops it (the server then cancels the model's request); the
 * rejection is then the AbortError.
 */
export async function callOperationStreamingText<O extends Operation>(
  operation: O,
  input: OperationInput<O>,
  onText: (text: string) => void,
  options: { signal?: AbortSignal } = {},
): Promise<OperationOutput<O>> {
  const { params, query, body } = input as { params?: Record<string, string>; query?: Query; body?: unknown }
  const { spec } = operation
  const path = operationUrl(spec, params)
  let response: Response
  try {
    response = await fetch(withQuery(path, query), {
      method: spec.method,
      credentials: 'same-origin',
      signal: options.signal,
      headers: {
        Accept: 'text/event-stream, application/json',
        'Accept-Language': currentLanguage(),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body ?? {}),
    })
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error
    throw new ApiError(0, 'network', message('error.network'))
  }
  if (!response.headers.get('Content-Type')?.startsWith('text/event-stream') || !response.body) {
    const text = await response.text()
    let data: unknown = null
    try {
      data = text ? JSON.parse(text) : null
    } catch {
      // not JSON; errorOf answers by status
    }
    if (response.ok) return data as OperationOutput<O>
    const error = errorOf(response.status, data, response.headers.get('retry-after'))
    debugLog.warn(`${spec.method} ${path} → ${error.status} ${error.code}: ${error.message}`)
    throw error
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  for (;;) {
    let chunk: ReadableStreamReadResult<string>
    try {
      chunk = await reader.read()
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error
      throw new ApiError(0, 'network', message('error.network'))
    }
    if (chunk.done) break
    text += chunk.value
    const { events, next } = readServerEvents(text, 0)
    text = text.slice(next)
    for (const event of events) {
      const data = JSON.parse(event.data) as Record<string, unknown>
      if (event.event === 'text') onText(String(data.text ?? ''))
      else if (event.event === 'result') return data as OperationOutput<O>
      else if (event.event === 'error') {
        const error = errorOf(Number(data.status) || 500, data, null)
        debugLog.warn(`${spec.method} ${path} → ${error.status} ${error.code}: ${error.message}`)
        throw error
      }
    }
  }
  throw new ApiError(0, 'network', message('error.network'))
}
