import { operationUrl, type Query, withQuery } from '../../domain/api/address.ts'
import type { Operation, OperationInput, OperationOutput } from '../../domain/api/operation.ts'
import { currentLanguage, message } from '../i18n/index.ts'
import { ApiError, errorOf } from './api.ts'
import { debugLog } from './debug-log.ts'

/**
 * The calls that answer as they go: the import's progress lines, a prompt run's text as server-sent
 * events. Apart from ./api.ts, whose plain calls every page (the sign-in pages too) downloads.
 */

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
