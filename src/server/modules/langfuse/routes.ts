import type { Context, Hono } from 'hono'
import type { langfuseOperations } from '../../../domain/api/langfuse.ts'
import { AppError, type ErrorCode } from '../../../domain/errors.ts'
import { langfuseNameMessages } from '../../../domain/langfuse.ts'
import { type MessageKey, type MessageParams, translate } from '../../../domain/messages/index.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import type { ApiKeyPrincipal } from '../../core/principal.ts'
import type { Db } from '../../db/client.ts'
import { plainAnswer } from '../../http/answer-headers.ts'
import type { AppEnv } from '../../http/env.ts'
import { InvalidInput } from '../../http/input.ts'
import { jsonAnswer, jsonText } from '../../http/json.ts'
import { checksItsKey, type Handlers, type KeyPair, type KeyPairDoor } from '../../http/operations.ts'
import type { Logger } from '../../log.ts'
import { admitKey, authenticateApiKey, isLivePublicKey, keyCredentialsOf } from '../api-keys/index.ts'
import { PromptInUseError } from '../prompts/index.ts'
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

/** A refusal in Langfuse's own words (a message no catalog holds: it names the prompt). */
class LangfuseRefusal extends AppError {
  constructor(
    code: ErrorCode,
    readonly text: string,
  ) {
    super(code)
  }
}

const notFound = (message: string) => new LangfuseRefusal('not_found', message)

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

/** Zod's issues in Langfuse's envelope: `{message: 'Invalid request data', error: [issues]}`. */
function invalidInputBody(error: InvalidInput, c: Context<AppEnv>) {
  // A custom issue carries its message's parameters (the clashing name, say) in `params`.
  const paramsOf = (issue: InvalidInput['issues'][number]) => (issue as { params?: MessageParams }).params
  const clashes = error.issues.filter((issue) => issue.message === 'prompts.placeholderClash')
  if (clashes.length > 0) {
    return { message: placeholderClashMessage(clashes.map((issue) => String(paramsOf(issue)?.name))) }
  }
  const worded = error.issues.map((issue) => langfuseWording(issue.message as MessageKey)).find(Boolean)
  if (worded) return { message: worded }
  const name = (error.input as { name?: unknown } | null)?.name
  return {
    message: 'Invalid request data',
    error: error.issues.flatMap((issue) => {
      const inLangfuseWords =
        issue.path.length === 1 && issue.path[0] === 'name' && typeof name === 'string'
          ? langfuseNameMessages(name)
          : []
      if (inLangfuseWords.length > 0) return inLangfuseWords.map((message) => ({ path: issue.path, message }))
      const message =
        translate(c.get('locale'), issue.message as MessageKey, paramsOf(issue)) || issue.message
      return [{ path: issue.path, message }]
    }),
  }
}

/** The error envelope of the Langfuse operations: `{message, error}` with Langfuse's names. */
export function langfuseErrorResponse(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof PromptInUseError) {
    return jsonAnswer(c, { message: inUseMessage(error), error: 'InvalidRequestError' }, 400)
  }
  if (error instanceof InvalidInput) {
    return jsonAnswer(c, { error: 'InvalidRequestError', ...invalidInputBody(error, c) }, 400)
  }
  if (error instanceof AppError) {
    const { retryAfter, params } = error.options
    if (retryAfter !== undefined) c.header('Retry-After', String(retryAfter))
    const message =
      error instanceof LangfuseRefusal
        ? error.text
        : (langfuseWording(error.messageKey, params) ??
          translate(c.get('locale') ?? 'en', error.messageKey, params))
    return jsonAnswer(c, { message, error: errorNames[error.code] }, error.status as 400)
  }
  return jsonAnswer(c, unexpectedErrorBody(error, c.get('log'), c.get('requestId')), 500)
}

/**
 * The body of Langfuse's 500 to an error nothing expected, which is logged with the request id: it
 * says nothing of the error. Also the kept-fetch lane's, for an error after it counted the request.
 */
export function unexpectedErrorBody(error: unknown, log: Logger | undefined, requestId: string | undefined) {
  log?.error('unhandled error', { err: error, requestId })
  return { message: 'Internal Server Error', error: errorNames.unexpected }
}

/** A fetched answer's validator and caching: a version never changes its text; a label may move at any moment, so it is revalidated. */
export function fetchAnswerHeaders(selector: { version?: number }, etag: string): Record<string, string> {
  return {
    ETag: etag,
    'Cache-Control':
      selector.version !== undefined
        ? 'private, max-age=31536000, immutable'
        : 'private, max-age=0, must-revalidate',
  }
}

/** Whether an If-None-Match header names the answer's ETag (weak or strong: a gzipped answer's is weak). */
export function isNotModified(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag) === true
}

const forbiddenBearer = 'Access denied - need to use basic auth with secret key to GET prompts'

/**
 * Langfuse's authentication: the key pair of a Basic header. A Bearer header carries a public key,
 * which grants no prompt access (403) when it is a live key, and is an invalid key (401) otherwise.
 */
export function langfuseKeyPair(db: Db, plans: PlanGate, rateLimitMultiplier: number): KeyPairDoor {
  return {
    async credentials(c) {
      const header = c.req.header('authorization') ?? ''
      if (header.startsWith('Bearer ')) {
        if (await isLivePublicKey(db, header.slice('Bearer '.length).trim())) {
          throw new LangfuseRefusal('forbidden', forbiddenBearer)
        }
        throw new LangfuseRefusal('not_authenticated', 'Unauthorized: invalid public key')
      }
      const credentials = keyCredentialsOf(header)
      if (credentials?.kind === 'malformed') throw new AppError('not_authenticated', 'apiKeys.invalid')
      if (credentials?.kind !== 'basic') {
        throw new LangfuseRefusal(
          'not_authenticated',
          'Unauthorized: no Basic authorization header with a public and a secret key',
        )
      }
      return { secret: credentials.secret, publicKey: credentials.publicKey }
    },
    async admit(c, { secret, publicKey }) {
      admitKey(c, await authenticateApiKey(db, plans, secret, publicKey, rateLimitMultiplier))
    },
  }
}

/** The key the door admitted (every handler but the fetch's runs after it). */
function keyOf(c: Context<AppEnv>): ApiKeyPrincipal {
  return c.get('apiKey')!
}

/**
 * The handlers of the Langfuse-compatible prompt API (reference/langfuse-prompt-api.md): the key's
 * space as the project, Langfuse's fields and statuses. Fetches answer with an ETag (304 on
 * If-None-Match); a version is immutable, a label short-lived.
 */
export function langfuseHandlers({
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
}): Handlers<typeof langfuseOperations> {
  const fetchOne = (legacy: boolean) =>
    checksItsKey(
      async ({
        params,
        query,
        keyPair,
        c,
      }: {
        params: { name?: string }
        query: { name?: string; version?: number; label?: string; resolve?: 'true' | 'false' }
        keyPair: KeyPair | null
        c: Context<AppEnv>
      }) => {
        const name = params.name ?? query.name!
        const selector = { version: query.version, label: query.label }
        const { principal, answer } = await fetchLangfuseAnswer(
          db,
          plans,
          { ...keyPair!, rateLimitMultiplier },
          name,
          selector,
          { resolve: query.resolve !== 'false', reads },
        )
        admitKey(c, principal)
        // The legacy route's 404 says only this, as Langfuse's does (its SDKs and tests match it).
        if (!answer) throw notFound(legacy ? 'Prompt not found' : notFoundMessage(name, selector))
        const headers = fetchAnswerHeaders(selector, answer.etag)
        if (isNotModified(c.req.header('if-none-match'), answer.etag)) {
          return plainAnswer(c, null, 304, headers)
        }
        return jsonText(c, answer.body, 200, headers)
      },
    )
  const create: Handlers<typeof langfuseOperations>['create'] = ({ body, c }) =>
    createLangfuseVersion(db, plans, keyOf(c), body)
  return {
    list: ({ query, c }) => listLangfusePrompts(reads, keyOf(c).space, query),
    create,
    get: fetchOne(false),
    updateLabels: async ({ params: { name, version }, body, c }) => {
      const answer = await addLangfuseLabels(db, keyOf(c), name, version, body.newLabels)
      if (!answer) throw notFound(notFoundMessage(name, { version }))
      return answer
    },
    delete: async ({ params: { name }, query, c }) => {
      const selector = { version: query.version, label: query.label }
      if (!(await deleteLangfusePrompt(db, keyOf(c), name, selector))) {
        throw notFound(
          selector.version === undefined && selector.label === undefined
            ? `Prompt not found: '${name}'`
            : notFoundMessage(name, selector),
        )
      }
    },
    legacyGet: fetchOne(true),
    legacyCreate: create,
  }
}

/**
 * Any other path under /api/public (after the MCP server): a key is checked first, as on every
 * route; then a prompt path with another method is 405, anything else 404, in Langfuse's envelope.
 */
export function mountLangfuseFallback(app: Hono<AppEnv>, door: KeyPairDoor): void {
  app.all('/api/public/*', async (c) => {
    try {
      await door.admit(c, await door.credentials(c))
      if (!/^\/api\/public\/(v2\/)?prompts(\/|$)/.test(c.req.path)) throw notFound('Route not found')
      return jsonAnswer(
        c,
        { message: `Method ${c.req.method} not allowed`, error: 'MethodNotAllowedError' },
        405,
      )
    } catch (error) {
      return langfuseErrorResponse(error as Error, c)
    }
  })
}
