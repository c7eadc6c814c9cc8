import { APICallError } from 'ai'
import { AppError } from '../../../domain/errors.ts'
import { BlockedAddressError } from '../../core/outbound-address.ts'

/** What a provider answered when it refused: its status, headers and (part of) its body. */
export interface UpstreamRefusal {
  statusCode: number
  headers: Record<string, string>
  body: string | undefined
}

/** Seconds to wait that a 429 names: `retry-after` (seconds or a date) or `retry-after-ms`. */
export function retryAfterSeconds(headers: Record<string, string>, now = Date.now()): number | null {
  const ms = Number(headers['retry-after-ms'])
  if (Number.isFinite(ms) && ms > 0) return Math.ceil(ms / 1000)
  const value = headers['retry-after']
  if (!value) return null
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds)
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(1, Math.ceil((date - now) / 1000))
}

/** The provider's own words about a refusal (`error.message` of either API), short and on one line. */
function detailOf(body: string | undefined): string {
  let text = body ?? ''
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown }
    const message =
      typeof parsed.error === 'object' ? parsed.error?.message : (parsed.error ?? parsed.message)
    if (typeof message === 'string') text = message
  } catch {
    // not JSON: the text as it came
  }
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 200 ? `${line.slice(0, 199)}…` : line || '—'
}

const modelMissing = /model/i

/** A refusal as the user's message. Never a 500: the provider is not our server. */
export function refusalError(refusal: UpstreamRefusal, model: string | null): AppError {
  const { statusCode: status } = refusal
  const reason = `upstream_${status}`
  if (status === 401 || status === 403) {
    return new AppError('upstream', 'models.upstreamUnauthorized', { params: { status }, reason })
  }
  if (status === 429) {
    const seconds = retryAfterSeconds(refusal.headers)
    return seconds === null
      ? new AppError('upstream', 'models.upstreamRateLimitedNoTime', { reason })
      : new AppError('upstream', 'models.upstreamRateLimited', {
          params: { seconds },
          retryAfter: seconds,
          reason,
        })
  }
  const detail = detailOf(refusal.body)
  if (model && (status === 404 || (status === 400 && modelMissing.test(detail)))) {
    return new AppError('upstream', 'models.upstreamModelNotFound', { params: { model }, reason })
  }
  if (status >= 400 && status < 500) {
    return new AppError('upstream', 'models.upstreamRejected', { params: { status, detail }, reason })
  }
  return new AppError('upstream', 'models.upstreamFailed', { params: { status }, reason })
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = []
  for (let current = error; current && chain.length < 6; current = (current as { cause?: unknown }).cause) {
    chain.push(current)
  }
  return chain
}

/** Any failure of a call to a provider, as the `upstream` error the user reads. */
export function upstreamError(
  error: unknown,
  context: { model: string | null; timedOut: boolean; timeoutMs: number },
): AppError {
  if (error instanceof AppError) return error
  if (context.timedOut || causes(error).some((e) => e instanceof Error && e.name === 'TimeoutError')) {
    return new AppError('upstream', 'models.upstreamTimeout', {
      params: { seconds: Math.round(context.timeoutMs / 1000) },
      reason: 'upstream_timeout',
    })
  }
  if (causes(error).some((e) => e instanceof BlockedAddressError)) {
    return new AppError('validation', 'models.baseUrlPrivate', {
      fields: { baseUrl: 'models.baseUrlPrivate' },
    })
  }
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    return refusalError(
      { statusCode: error.statusCode, headers: error.responseHeaders ?? {}, body: error.responseBody },
      context.model,
    )
  }
  if (APICallError.isInstance(error) || causes(error).some((e) => e instanceof TypeError)) {
    return new AppError('upstream', 'models.upstreamUnreachable', { reason: 'upstream_unreachable' })
  }
  return new AppError('upstream', 'models.upstreamInvalid', { reason: 'upstream_invalid' })
}
