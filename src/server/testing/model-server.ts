import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for model APIs on 127.0.0.1: the OpenAI chat completions API (with and without
 * streaming, `GET /models`) under `/openai/v1`, and the Anthropic Messages API (streaming, `GET
 * /models`) under `/anthropic/v1`. It answers `Echo: <the last user message>` in pieces, with token
 * counts, to the key `FakeModelServer.apiKey`. Some model names make it misbehave on purpose:
 * - `missing-model`: 404, the model does not exist;
 * - `busy-model`: 429 with `retry-after: 7`;
 * - `broken-model`: 500;
 * - `endless-model`: one piece, then nothing until the client goes away (`cancelled` counts it).
 * Used by the API tests, and as a process (e2e/servers/model-server.ts) by the e2e run.
 */

/** The message an Anthropic stream opens with, before any text. */
const anthropicMessage = (model: string, inputTokens: number) => ({
  id: 'msg_fake',
  type: 'message',
  role: 'assistant',
  model,
  content: [],
  stop_reason: null,
  usage: { input_tokens: inputTokens, output_tokens: 0 },
})

export class FakeModelServer {
  static readonly apiKey = 'sk-fake-0123456789abcdef'
  static readonly models = ['fake-large', 'fake-small']

  /** Every request's method, path and JSON body, in order. */
  readonly requests: { method: string; path: string; body: Record<string, unknown> | null }[] = []
  /** Streams the client closed before they ended. */
  cancelled = 0
  private closedWaiters: (() => void)[] = []

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(port = 0): Promise<FakeModelServer> {
    let self: FakeModelServer | undefined
    const server = createServer((req, res) => {
      void self!.handle(req, res).catch((error: Error) => {
        res.statusCode = 500
        res.end(error.message)
      })
    })
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    self = new FakeModelServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    return self
  }

  get openAiBaseUrl() {
    return `${this.origin}/openai/v1`
  }
  get anthropicBaseUrl() {
    return `${this.origin}/anthropic/v1`
  }

  /** Resolves when a stream has been closed by its client (after `cancelled` went up). */
  nextCancellation(): Promise<void> {
    return new Promise((resolve) => this.closedWaiters.push(resolve))
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin)
    const raw = await readBody(req)
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, body })
    if (url.pathname === '/health') return json(res, 200, { ok: true })
    const anthropic = url.pathname.startsWith('/anthropic/')
    const key = anthropic ? req.headers['x-api-key'] : req.headers.authorization?.replace(/^Bearer /, '')
    if (key !== FakeModelServer.apiKey) {
      return json(
        res,
        401,
        anthropic
          ? { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }
          : {
              error: {
                message: 'Incorrect API key provided',
                type: 'invalid_request_error',
                code: 'invalid_api_key',
              },
            },
      )
    }
    if (req.method === 'GET' && url.pathname.endsWith('/v1/models')) {
      return json(res, 200, { data: FakeModelServer.models.map((id) => ({ id, object: 'model' })) })
    }
    const model = String(body?.model ?? '')
    if (model === 'missing-model') {
      return json(res, 404, {
        error: { message: `The model \`${model}\` does not exist`, code: 'model_not_found' },
      })
    }
    if (model === 'busy-model') {
      res.setHeader('retry-after', '7')
      return json(res, 429, { error: { message: 'Rate limit reached', type: 'rate_limit_error' } })
    }
    if (model === 'broken-model') return json(res, 500, { error: { message: 'internal failure' } })
    const reply = `Echo: ${lastUserText(body)}`
    const pieces = reply.match(/\S+\s*/g) ?? [reply]
    const inputTokens = JSON.stringify(body?.messages ?? '').split(/\s+/).length
    if (url.pathname === '/openai/v1/chat/completions') {
      if (!body?.stream) {
        return json(res, 200, {
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: 0,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
          usage: {
            prompt_tokens: inputTokens,
            completion_tokens: pieces.length,
            total_tokens: inputTokens + pieces.length,
          },
        })
      }
      const chunk = (delta: object, finish: string | null = null) => ({
        id: 'chatcmpl-fake',
        object: 'chat.completion.chunk',
        created: 0,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })
      return this.stream(res, model, async (send) => {
        await send(null, chunk({ role: 'assistant', content: '' }))
        for (const piece of pieces) await send(null, chunk({ content: piece }))
        await send(null, chunk({}, 'stop'))
        const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage
        if (includeUsage) {
          await send(null, {
            ...chunk({}),
            choices: [],
            usage: {
              prompt_tokens: inputTokens,
              completion_tokens: pieces.length,
              total_tokens: inputTokens + pieces.length,
            },
          })
        }
        res.write('data: [DONE]\n\n')
      })
    }
    if (url.pathname === '/anthropic/v1/messages') {
      return this.stream(res, model, async (send) => {
        await send('message_start', {
          type: 'message_start',
          message: anthropicMessage(model, inputTokens),
        })
        await send('content_block_start', {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' },
        })
        for (const piece of pieces) {
          await send('content_block_delta', {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: piece },
          })
        }
        await send('content_block_stop', { type: 'content_block_stop', index: 0 })
        await send('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: pieces.length },
        })
        await send('message_stop', { type: 'message_stop' })
      })
    }
    json(res, 404, { error: { message: `no route ${url.pathname}` } })
  }

  /** An event stream; `endless-model` sends one piece and then waits for the client to leave. */
  private async stream(
    res: ServerResponse,
    model: string,
    write: (send: (event: string | null, data: object) => Promise<void>) => Promise<void>,
  ): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const send = async (event: string | null, data: object) => {
      res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`)
    }
    if (model === 'endless-model') {
      res.on('close', () => {
        this.cancelled += 1
        for (const waiter of this.closedWaiters.splice(0)) waiter()
      })
      const anthropic = res.req.url?.startsWith('/anthropic/')
      await send(
        anthropic ? 'message_start' : null,
        anthropic
          ? {
              type: 'message_start',
              message: anthropicMessage(model, 1),
            }
          : {
              id: 'c',
              object: 'chat.completion.chunk',
              created: 0,
              model,
              choices: [{ index: 0, delta: { content: 'Thinking ' }, finish_reason: null }],
            },
      )
      if (anthropic) {
        await send('content_block_start', {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' },
        })
        await send('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'Thinking ' },
        })
      }
      return
    }
    await write(send)
    res.end()
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** The text of the last user message (OpenAI or Anthropic form, string or content parts). */
function lastUserText(body: Record<string, unknown> | null): string {
  const messages = (body?.messages ?? []) as { role: string; content: unknown }[]
  const last = [...messages].reverse().find((message) => message.role === 'user')
  if (!last) return ''
  if (typeof last.content === 'string') return last.content
  return (last.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('')
}
