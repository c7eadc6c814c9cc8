import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { type LanguageModel, type ModelMessage, streamText } from 'ai'
import { Agent, fetch as undiciFetch } from 'undici'
import { z } from 'zod'
import { AppError } from '../../../domain/errors.ts'
import { MODELS_PER_PROVIDER, type ProviderKind, type RunParameters } from '../../../domain/models.ts'
import { pinnedLookup } from '../../core/outbound-address.ts'
import { refusalError, upstreamError } from './upstream-errors.ts'

/**
 * The one place that talks to model APIs, through the Vercel AI SDK (decision 0257): its
 * OpenAI-compatible provider for OpenAI and the many APIs that copy it, its Anthropic provider for
 * the Messages API. Retries are off (a 429 is reported with its wait, not waited out in a request);
 * failures become `upstream` AppErrors with a message the user can act on (upstream-errors.ts).
 */
export interface Connection {
  kind: ProviderKind
  baseUrl: string
  apiKey: string
  /** MODELS_ALLOW_PRIVATE=1: the base URL may be on a private or loopback address. */
  allowPrivate: boolean
}

let guardedAgent: Agent | undefined

/**
 * The fetch the SDK uses. Unless private addresses are allowed, it connects only to the addresses
 * that the address guard approved at connect time (`pinnedLookup`, as webhook deliveries do), so
 * a host that resolves to a private address after the provider was saved is still refused.
 */
function fetchFor(connection: Connection): typeof fetch {
  if (connection.allowPrivate) return globalThis.fetch
  guardedAgent ??= new Agent({ connect: { lookup: pinnedLookup } })
  const dispatcher = guardedAgent
  return ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher })) as unknown as typeof fetch
}

export function languageModel(connection: Connection, model: string): LanguageModel {
  const fetch = fetchFor(connection)
  if (connection.kind === 'anthropic') {
    return createAnthropic({ baseURL: connection.baseUrl, apiKey: connection.apiKey, fetch })(model)
  }
  return createOpenAICompatible({
    name: 'upstream',
    baseURL: connection.baseUrl,
    apiKey: connection.apiKey,
    includeUsage: true,
    fetch,
  }).chatModel(model)
}

export interface StreamedAnswer {
  text: string
  finishReason: string
  inputTokens: number | null
  outputTokens: number | null
  timeToFirstTokenMs: number | null
  durationMs: number
}

export interface StreamOptions {
  connection: Connection
  model: string
  messages: ModelMessage[]
  parameters: RunParameters
  /** The caller went away or pressed Stop: the upstream request is cancelled, the answer so far kept. */
  signal: AbortSignal
  timeoutMs: number
  onText: (text: string) => Promise<void>
}

/** Streams one answer; resolves with it (finish reason 'cancelled' when `signal` stopped it). */
export async function streamAnswer(options: StreamOptions): Promise<StreamedAnswer> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const result = streamText({
    model: languageModel(options.connection, options.model),
    messages: options.messages,
    temperature: options.parameters.temperature,
    maxOutputTokens: options.parameters.maxTokens,
    topP: options.parameters.topP,
    maxRetries: 0,
    abortSignal: AbortSignal.any([options.signal, timeout]),
    // Errors arrive as stream parts below; the default handler would only print them.
    onError: () => {},
  })
  const answer: StreamedAnswer = {
    text: '',
    finishReason: 'unknown',
    inputTokens: null,
    outputTokens: null,
    timeToFirstTokenMs: null,
    durationMs: 0,
  }
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        if (!part.text) continue
        answer.timeToFirstTokenMs ??= elapsed()
        answer.text += part.text
        await options.onText(part.text)
      } else if (part.type === 'finish') {
        answer.finishReason = part.finishReason
        answer.inputTokens = part.totalUsage.inputTokens ?? null
        answer.outputTokens = part.totalUsage.outputTokens ?? null
      } else if (part.type === 'error') {
        // Made a clear message below, unless the caller stopped the run.
        if (!options.signal.aborted) throw part.error
      }
    }
  } catch (error) {
    // An error part, or a thrown read error: stopped by the caller, some streams (the Anthropic
    // one, behind the real Node server) throw instead of ending, and the answer so far is the answer.
    if (!options.signal.aborted) {
      throw upstreamError(error, {
        model: options.model,
        timedOut: timeout.aborted,
        timeoutMs: options.timeoutMs,
      })
    }
  }
  if (options.signal.aborted) answer.finishReason = 'cancelled'
  else if (timeout.aborted) {
    throw upstreamError(timeout.reason, {
      model: options.model,
      timedOut: true,
      timeoutMs: options.timeoutMs,
    })
  }
  answer.durationMs = elapsed()
  return answer
}

/**
 * The provider's model names (`GET /models`, which both APIs answer with `{ data: [{ id }] }`).
 * The SDK has no call for it, so this one request is made here, through the same guarded fetch.
 */
export async function listModels(connection: Connection, timeoutMs: number): Promise<string[]> {
  const headers: Record<string, string> =
    connection.kind === 'anthropic'
      ? { 'x-api-key': connection.apiKey, 'anthropic-version': '2023-06-01' }
      : { Authorization: `Bearer ${connection.apiKey}` }
  const timeout = AbortSignal.timeout(timeoutMs)
  let response: Response
  try {
    response = await fetchFor(connection)(`${connection.baseUrl}/models`, { headers, signal: timeout })
  } catch (error) {
    throw upstreamError(error, { model: null, timedOut: timeout.aborted, timeoutMs })
  }
  const body = await response.text().catch(() => '')
  if (response.status === 404 || response.status === 405) {
    throw new AppError('upstream', 'models.modelsNotListed', { reason: 'upstream_no_model_list' })
  }
  if (!response.ok) {
    throw refusalError(
      { statusCode: response.status, headers: Object.fromEntries(response.headers), body },
      null,
    )
  }
  const parsed = modelList.safeParse(safeJson(body))
  if (!parsed.success)
    throw new AppError('upstream', 'models.upstreamInvalid', { reason: 'upstream_invalid' })
  return [...new Set(parsed.data.data.map((model) => model.id))].sort().slice(0, MODELS_PER_PROVIDER)
}

const modelList = z.object({ data: z.array(z.object({ id: z.string().min(1).max(200) })) })

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
