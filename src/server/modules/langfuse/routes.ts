import { type Context, Hono } from 'hono'
import type { z } from 'zod'
import { VERSION_NUMBER_MAX } from '../../../domain/constants.ts'
import { AppError, type ErrorCode, suspendStackTraceFor } from '../../../domain/errors.ts'
import {
  langfuseCreateSchema,
  langfuseGetQuery,
  langfuseListQuery,
  langfuseNameMessages,
  langfuseUpdateLabelsSchema,
} from '../../../domain/langfuse.ts'
import { type MessageKey, type MessageParams, translate } from '../../../domain/messages/index.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import type { ApiKeyPrincipal } from '../../core/principal.ts'
import type { Db } from '../../db/client.ts'
import type { AppEnv } from '../../http/env.ts'
import { firstUnstorableText } from '../../http/input.ts'
import { jsonAnswer, jsonText } from '../../http/json.ts'
import { admitKey } from '../api-keys/authenticate.ts'
import { keyCredentialsOf } from '../api-keys/key-credentials.ts'
import { isLivePublicKey } from '../api-keys/public-key.ts'
import { authenticateApiKey } from '../api-keys/service.ts'
import { PromptInUseError } from '../prompts/deletion.ts'
import {
  addLangfuseLabels,
  createLangfuseVersion,
  deleteLangfusePrompt,
  fetchLangfuseAnswer,
  listLangfusePrompts,
  notFoundMessage,
} from './service.ts'
import { langfuseWording, placeholderClashMessage } from './wording.ts'

/** Langfuse's error names by our error kinds (its `{message, error}` envelope); every kind has one. */
const errorNames: Record<ErrorCode, string> = {
  validation: 'InvalidRequestError',
  not_authenticated: 'UnauthorizedError',
  forbidden: 'ForbiddenError',
  // A plan refusing the action is access denied to the SDK, as Langfuse's own usage limits are.
  plan_limit: 'ForbiddenError',
  not_found: 'LangfuseNotFoundError',
  conflict: 'LangfuseConflictError',
  payload_too_large: 'InvalidRequestError',
  rate_limited: 'TooManyRequestsError',
  transient: 'ServiceUnavailableError',
  unexpected: 'InternalServerError',
  // The Langfuse routes call no model provider; listed because every kind has a name.
  upstream: 'ServiceUnavailableError',
}

class LangfuseError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405,
    message: string,
    readonly body: unknown,
  ) {
    const stackTraceLimit = suspendStackTraceFor(status)
    super(message)
    Error.stackTraceLimit = stackTraceLimit
  }
}

const notFound = (message: string) =>
  new LangfuseError(404, message, { message, error: 'LangfuseNotFoundError' })
const badRequest = (message: string) =>
  new LangfuseError(400, message, { message, error: 'InvalidRequestError' })

/** Langfuse's refusal of a delete that would break including prompts: each version and what it includes. */
function inUseMessage(error: PromptInUseError): string {
  const lines = error.dependents.map(
    ({ name, version, reference }) =>
      `${name} v${version} depends on ${error.promptName} ${
        reference.kind === 'version' ? `v${reference.version}` : reference.label
      }`,
  )
  return `Other prompts are depending on prompt versions you are trying to delete:\n\n${lines.join('\n')}\n\nPlease delete the dependent prompts first.`
}

function langfuseErrorResponse(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof LangfuseError) return jsonAnswer(c, error.body as object, error.status)
  if (error instanceof PromptInUseError) {
    return jsonAnswer(c, { message: inUseMessage(error), error: 'InvalidRequestError' }, 400)
  }
  if (error instanceof AppError) {
    const { retryAfter, params } = error.options
    if (retryAfter !== undefined) c.header('Retry-After', String(retryAfter))
    const message =
      langfuseWording(error.messageKey, params) ??
      translate(c.get('locale') ?? 'en', error.messageKey, params)
    return jsonAnswer(c, { message, error: errorNames[error.code] }, error.status as 400)
  }
  c.get('log')?.error('unhandled error', { err: error, requestId: c.get('requestId') })
  return jsonAnswer(c, { message: 'Internal Server Error', error: 'InternalServerError' }, 500)
}

/** Zod's issues in Langfuse's envelope: `{message: 'Invalid request data', error: [issues]}`. */
function parse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  locale: AppEnv['Variables']['locale'],
): z.output<S> {
  requireStorable(value)
  const result = schema.safeParse(value)
  if (result.success) return result.data
  // A custom issue carries its message's parameters (the clashing name, say) in `params`.
  const paramsOf = (issue: z.core.$ZodIssue) => (issue as { params?: MessageParams }).params
  const clashes = result.error.issues.filter((issue) => issue.message === 'prompts.placeholderClash')
  if (clashes.length > 0) {
    throw badRequest(placeholderClashMessage(clashes.map((issue) => String(paramsOf(issue)?.name))))
  }
  const name = (value as { name?: unknown } | null)?.name
  throw new LangfuseError(400, 'Invalid request data', {
    message: 'Invalid request data',
    error: result.error.issues.flatMap((issue) => {
      const inLangfuseWords =
        issue.path.length === 1 && issue.path[0] === 'name' && typeof name === 'string'
          ? langfuseNameMessages(name)
          : []
      if (inLangfuseWords.length > 0) return inLangfuseWords.map((message) => ({ path: issue.path, message }))
      return [
        {
          path: issue.path,
          message: translate(locale, issue.message as MessageKey, paramsOf(issue)) || issue.message,
        },
      ]
    }),
  })
}

/** Text the database cannot store (U+0000, an unpaired surrogate) is a 400, never a 500. */
function requireStorable(value: unknown): void {
  if (firstUnstorableText(value) !== null) throw badRequest(translate('en', 'error.unstorableCharacter'))
}

/** The prompt name of the path (decoded by the router; an encoded slash makes a folder). */
function nameOf(c: Context<AppEnv>): string {
  const name = c.req.param('name') ?? ''
  requireStorable(name)
  return name
}

async function jsonOf(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    throw badRequest('Invalid JSON body')
  }
}

/** The key the middleware authenticated (every route below runs after it). */
function keyOf(c: Context<AppEnv>): ApiKeyPrincipal {
  const key = c.get('apiKey')
  if (!key) throw new AppError('not_authenticated', 'apiKeys.invalid')
  return key
}

const forbiddenBearer = 'Access denied - need to use basic auth with secret key to GET prompts'

/** The fetches (`fetchOne`): v2 by name, and the legacy one by `?name=`. */
const fetchPaths = /^\/api\/public\/(v2\/prompts\/[^/]+|prompts)$/

const unauthorized = (message: string) =>
  new LangfuseError(401, message, { message, error: 'UnauthorizedError' })

/**
 * A Bearer header as Langfuse answers it: it carries a public key, which grants no prompt access
 * (403) when it is a live key, and is an invalid key (401) otherwise.
 */
async function refuseBearer(db: Db, c: Context<AppEnv>): Promise<void> {
  const header = c.req.header('authorization') ?? ''
  if (!header.startsWith('Bearer ')) return
  if (await isLivePublicKey(db, header.slice('Bearer '.length).trim())) {
    throw new LangfuseError(403, forbiddenBearer, { message: forbiddenBearer, error: 'ForbiddenError' })
  }
  throw unauthorized('Unauthorized: invalid public key')
}

/**
 * The key pair of the Basic header; anything else is refused as Langfuse refuses it (a Bearer
 * header is answered before, by `refuseBearer`). The pair itself is checked by the caller.
 */
function credentialsOf(c: Context<AppEnv>): { secret: string; publicKey: string } {
  const credentials = keyCredentialsOf(c.req.header('authorization'))
  if (credentials?.kind === 'malformed') throw new AppError('not_authenticated', 'apiKeys.invalid')
  if (credentials?.kind !== 'basic') {
    throw unauthorized('Unauthorized: no Basic authorization header with a public and a secret key')
  }
  return { secret: credentials.secret, publicKey: credentials.publicKey }
}

/**
 * The Langfuse-compatible prompt API under /api/public (reference/langfuse-prompt-api.md): Basic
 * auth with a key pair, the key's space as the project, Langfuse's fields, statuses and errors.
 * Fetches answer with an ETag (304 on If-None-Match); a version is immutable, a label short-lived.
 */
export function langfuseRoutes({
  db,
  reads,
  plans,
  rateLimitMultiplier,
}: {
  db: Db
  /** For the fetch and the list, which tolerate a replica's lag (`Database.reader`). */
  reads: Db
  plans: PlanGate
  rateLimitMultiplier: number
}) {
  const api = new Hono<AppEnv>()
  api.onError(langfuseErrorResponse)

  const authenticate = async (c: Context<AppEnv>) => {
    const { secret, publicKey } = credentialsOf(c)
    admitKey(c, await authenticateApiKey(db, plans, secret, publicKey, rateLimitMultiplier))
  }

  api.use('*', async (c, next) => {
    await refuseBearer(db, c)
    credentialsOf(c)
    // A fetch checks its key in its own statement (fetchLangfuseAnswer).
    if ((c.req.method === 'GET' || c.req.method === 'HEAD') && fetchPaths.test(c.req.path)) return next()
    await authenticate(c)
    await next()
  })

  const fetchOne = async (c: Context<AppEnv>, nameOrNone: string | undefined, legacy = false) => {
    let request: { name: string; selector: { version?: number; label?: string }; resolve: boolean }
    try {
      if (!nameOrNone) throw badRequest('Invalid request data: name is required')
      requireStorable(nameOrNone)
      const query = parse(langfuseGetQuery, c.req.query(), c.get('locale'))
      if (query.version !== undefined && query.label !== undefined) {
        throw badRequest('Cannot specify both version and label')
      }
      const selector = { version: query.version, label: query.label }
      request = { name: nameOrNone, selector, resolve: query.resolve !== 'false' }
    } catch (error) {
      // As on every other route, a refused key is answered before a bad request.
      await authenticate(c)
      throw error
    }
    const { name, selector } = request
    const { secret, publicKey } = credentialsOf(c)
    const { principal, answer } = await fetchLangfuseAnswer(
      db,
      plans,
      { secret, publicKey, rateLimitMultiplier },
      name,
      selector,
      { resolve: request.resolve, reads },
    )
    admitKey(c, principal)
    // The legacy route's 404 says only this, as Langfuse's does (its SDKs and tests match it).
    if (!answer) throw notFound(legacy ? 'Prompt not found' : notFoundMessage(name, selector))
    const { body, etag } = answer
    const headers = {
      ETag: etag,
      // A version never changes its text; a label may move at any moment, so it is revalidated.
      'Cache-Control':
        selector.version !== undefined
          ? 'private, max-age=31536000, immutable'
          : 'private, max-age=0, must-revalidate',
    }
    const match = c.req.header('if-none-match')
    if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return c.body(null, 304, headers)
    }
    return jsonText(c, body, 200, headers)
  }

  api.get('/v2/prompts', async (c) => {
    const query = parse(langfuseListQuery, c.req.query(), c.get('locale'))
    return jsonAnswer(c, await listLangfusePrompts(reads, keyOf(c).space, query))
  })

  const create = async (c: Context<AppEnv>) => {
    const input = parse(langfuseCreateSchema, await jsonOf(c), c.get('locale'))
    return jsonAnswer(c, await createLangfuseVersion(db, plans, keyOf(c), input), 201)
  }
  api.post('/v2/prompts', create)

  api.get('/v2/prompts/:name', (c) => fetchOne(c, c.req.param('name')))

  api.patch('/v2/prompts/:name/versions/:version', async (c) => {
    const name = nameOf(c)
    const version = Number(c.req.param('version'))
    if (!Number.isInteger(version) || version < 1 || version > VERSION_NUMBER_MAX) {
      throw notFound(notFoundMessage(name, { version }))
    }
    const { newLabels } = parse(langfuseUpdateLabelsSchema, await jsonOf(c), c.get('locale'))
    const answer = await addLangfuseLabels(db, keyOf(c), name, version, newLabels)
    if (!answer) throw notFound(notFoundMessage(name, { version }))
    return jsonAnswer(c, answer)
  })

  api.delete('/v2/prompts/:name', async (c) => {
    const name = nameOf(c)
    const query = parse(langfuseGetQuery, c.req.query(), c.get('locale'))
    if (query.version !== undefined && query.label !== undefined) {
      throw badRequest('Cannot specify both version and label')
    }
    const selector = { version: query.version, label: query.label }
    if (!(await deleteLangfusePrompt(db, keyOf(c), name, selector))) {
      throw notFound(
        selector.version === undefined && selector.label === undefined
          ? `Prompt not found: '${name}'`
          : notFoundMessage(name, selector),
      )
    }
    return c.body(null, 204)
  })

  // Legacy v1 (older SDKs): GET ?name=&version= (production by default), POST with isActive.
  api.get('/prompts', (c) => fetchOne(c, c.req.query('name'), true))
  api.post('/prompts', create)

  api.all('*', (c) => {
    const known = /^\/api\/public\/(v2\/)?prompts(\/|$)/.test(c.req.path)
    if (!known) throw notFound('Route not found')
    return jsonAnswer(
      c,
      { message: `Method ${c.req.method} not allowed`, error: 'MethodNotAllowedError' },
      405,
    )
  })
  return api
}
