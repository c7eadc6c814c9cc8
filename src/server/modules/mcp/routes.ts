import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { type Context, Hono } from 'hono'
import { AppError } from '../../../domain/errors.ts'
import { translate } from '../../../domain/messages/index.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import type { Db } from '../../db/client.ts'
import type { AppEnv } from '../../http/env.ts'
import { jsonAnswer } from '../../http/json.ts'
import { admitKey, authenticateApiKey, keyCredentialsOf } from '../api-keys/index.ts'
import { mcpServerFor } from './server.ts'

/** JSON-RPC's code for an error the server defines (MCP's transport uses it for HTTP refusals). */
const SERVER_ERROR = -32000

/** A refusal before any MCP message is read: the HTTP status, with a JSON-RPC error as the body. */
function refusal(c: Context<AppEnv>, status: number, message: string, data?: unknown) {
  return jsonAnswer(
    c,
    { jsonrpc: '2.0', id: null, error: { code: SERVER_ERROR, message, ...(data !== undefined && { data }) } },
    status as 401,
  )
}

/**
 * The MCP server at /api/public/mcp (Streamable HTTP, stateless, JSON answers; decision 0253). A
 * request carries an API key as the Langfuse routes take it (Basic `pk:sk`) or its secret alone
 * (Bearer); it is checked as on every key door (revocation at once, rate limit, the plan's API
 * access) and reaches its own space only. A refused key is answered before MCP sees the message.
 */
export function mcpRoutes({
  db,
  plans,
  rateLimitMultiplier,
  version,
}: {
  db: Db
  plans: PlanGate
  rateLimitMultiplier: number
  version: string
}) {
  const api = new Hono<AppEnv>()
  api.onError((error, c) => {
    if (error instanceof AppError) {
      const { retryAfter, params } = error.options
      if (retryAfter !== undefined) c.header('Retry-After', String(retryAfter))
      if (error.status === 401) c.header('WWW-Authenticate', 'Basic realm="Promptfolio", charset="UTF-8"')
      return refusal(c, error.status, translate(c.get('locale') ?? 'en', error.messageKey, params), {
        code: error.code,
      })
    }
    c.get('log')?.error('unhandled error', { err: error, requestId: c.get('requestId') })
    return refusal(c, 500, 'Internal error')
  })

  api.post('/', async (c) => {
    const credentials = keyCredentialsOf(c.req.header('authorization'))
    if (!credentials || credentials.kind === 'malformed')
      throw new AppError('not_authenticated', 'apiKeys.invalid')
    const principal = await authenticateApiKey(
      db,
      plans,
      credentials.secret,
      credentials.kind === 'basic' ? credentials.publicKey : null,
      rateLimitMultiplier,
    )
    admitKey(c, principal)
    const server = mcpServerFor({ db, plans, log: c.get('log'), version }, principal, c.get('locale'))
    // Stateless: no session, and every answer is JSON, so the response is whole when it returns.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    await server.connect(transport)
    try {
      return await transport.handleRequest(c.req.raw)
    } finally {
      await server.close()
    }
  })

  // No stream to open and no session to end: a stateless server answers POST only, as MCP allows.
  api.all('/', (c) => {
    c.header('Allow', 'POST')
    return refusal(c, 405, 'Method not allowed')
  })
  return api
}
