import type { Context, Hono } from 'hono'
import { stream } from 'hono/streaming'
import type { z } from 'zod'
import {
  type ErrorEnvelope,
  errorCodesOf,
  needsRecentSignIn,
  type Operation,
  type OperationSpec,
  type ParsedInput,
  REAUTHENTICATION_REQUIRED,
  successStatus,
} from '../../domain/api/operation.ts'
import { scopeAllows } from '../../domain/api-keys.ts'
import type { Actor } from '../../domain/auth.ts'
import { RECENT_SIGN_IN_SECONDS } from '../../domain/constants.ts'
import { AppError } from '../../domain/errors.ts'
import type { AppEnv } from './env.ts'
import { handleError } from './errors.ts'
import { jsonBody, pathParams, queryParams, streamedJsonBody } from './input.ts'
import { jsonAnswer } from './json.ts'
import { routeOperation } from './operation-routes.ts'

/** What a handler gets: the validated input, the acting user, and the request for the rare header. */
export type HandlerContext<S extends OperationSpec> = ParsedInput<S> & {
  /** The signed-in user (none for a public or a key-pair operation; the key is `c.get('apiKey')`). */
  actor: S['access'] extends 'public' | 'key-pair' ? Actor | null : Actor
  /** A key-pair operation's pair as sent (checked before the handler unless it `checksItsKey`). */
  keyPair: S['access'] extends 'key-pair' ? KeyPair : null
  c: Context<AppEnv>
  /**
   * How far a `streamsProgress` operation is (sent when the caller asked for progress lines). Await
   * it: it lets the line out to the socket before the work goes on.
   */
  progress: (done: number, total: number) => Promise<void>
  /** A piece of a `streamsText` operation's answer (sent when the caller asked for events). */
  text: (text: string) => Promise<void>
  /** Aborted when the caller closes the connection (for work worth cancelling, as a model's run). */
  signal: AbortSignal
}

export const PROGRESS_CONTENT_TYPE = 'application/x-ndjson'

/**
 * The answer of a `streamsProgress` operation asked for progress: NDJSON lines as it goes (at most
 * one per percent), then its result or its error as the error handler renders it.
 */
function progressResponse(
  c: Context<AppEnv>,
  run: (progress: HandlerContext<OperationSpec>['progress']) => Promise<unknown>,
) {
  c.header('Content-Type', PROGRESS_CONTENT_TYPE)
  c.header('Cache-Control', 'no-store')
  return stream(c, async (out) => {
    let sent = -1
    const line = (value: unknown) => out.write(`${JSON.stringify(value)}\n`)
    const progress = async (done: number, total: number) => {
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100
      if (percent === sent) return
      sent = percent
      await line({ progress: { done, total } })
      // An embedded database answers in microtasks, which never let the socket write: yield once.
      await new Promise((resolve) => setImmediate(resolve))
    }
    try {
      await line({ result: await run(progress) })
    } catch (error) {
      const answer = handleError(error as Error, c)
      await line({ status: answer.status, ...((await answer.json()) as object) })
    }
  })
}

const NEVER_ABORTED = new AbortController().signal

export const EVENT_STREAM_CONTENT_TYPE = 'text/event-stream'

/**
 * The answer of a `streamsText` operation asked for events: `text` events as the handler produces
 * them, then `result` or `error` (as the error handler renders it). Proxies are asked not to buffer.
 */
function eventStreamResponse(
  c: Context<AppEnv>,
  run: (text: HandlerContext<OperationSpec>['text']) => Promise<unknown>,
) {
  c.header('Content-Type', `${EVENT_STREAM_CONTENT_TYPE}; charset=utf-8`)
  c.header('Cache-Control', 'no-store')
  c.header('X-Accel-Buffering', 'no')
  return stream(c, async (out) => {
    const send = (event: string, data: unknown) =>
      out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    try {
      await send('result', await run((text) => send('text', { text }).then(() => {})))
    } catch (error) {
      const answer = handleError(error as Error, c)
      await send('error', { status: answer.status, ...((await answer.json()) as object) })
    }
  })
}

/**
 * A handler answers the operation's response (what its schema accepts), or nothing for a 204; or,
 * for an answer with headers of its own (an ETag, a 304), the Response itself, holding that JSON.
 */
export type Handler<S extends OperationSpec> = ((
  context: HandlerContext<S>,
) => S['response'] extends z.ZodType ? Promise<z.input<S['response']> | Response> : Promise<void>) & {
  [checksKey]?: true
}

const checksKey = Symbol('checksItsKey')

/**
 * A key-pair handler that checks the pair itself, in the statement that reads its answer (the
 * runtime fetch: one round trip for the key and the prompt). It admits the key (`KeyPairDoor.admit`
 * does it for the others); an invalid input still has the key checked first, so that a refused key
 * is answered before a bad request, as everywhere.
 */
export function checksItsKey<H extends (context: never) => Promise<unknown>>(handler: H): H {
  return Object.assign(handler, { [checksKey]: true as const })
}

export interface KeyPair {
  publicKey: string
  secret: string
}

/** How a `key-pair` operation's caller is authenticated (the door's module provides it). */
export interface KeyPairDoor {
  /** The request's key pair; any other Authorization is refused as that door refuses it. */
  credentials(c: Context<AppEnv>): Promise<KeyPair>
  /** Checks the pair and admits its key: rate limit, plan, `c.get('apiKey')`. */
  admit(c: Context<AppEnv>, pair: KeyPair): Promise<void>
}

/** Renders an error in a declared envelope other than ours. */
export type ErrorRenderer = (error: Error, c: Context<AppEnv>) => Response

/** One handler for every operation of a group, so a declared operation cannot go unserved. */
export type Handlers<G> = {
  [K in keyof G as K extends '$group' ? never : K]: G[K] extends Operation<infer S> ? Handler<S> : never
}

export interface MountOptions {
  /**
   * Check every answer against the operation's response schema and every error against the codes
   * it declares; a mismatch becomes a 500 that fails the test. On in the API tests, off in
   * production (it costs a parse per answer).
   */
  checkContracts?: boolean
  /** The authentication of `key-pair` operations; required to mount one. */
  keyPair?: KeyPairDoor
  /** The renderers of the error envelopes the mounted operations declare, besides ours. */
  envelopes?: Partial<Record<Exclude<ErrorEnvelope, 'promptfolio'>, ErrorRenderer>>
}

/** The acting user, built once per request from the session and the request's language. */
export function actorOf(c: Context<AppEnv>): Actor | null {
  const user = c.get('user')
  const key = c.get('apiKey')
  return user
    ? {
        id: user.id,
        email: user.email,
        globalRole: user.globalRole,
        locale: c.get('locale'),
        clientAddress: c.get('clientAddress'),
        ...(key && { apiKeyId: key.keyId }),
      }
    : null
}

function authorize(operation: Operation, actor: Actor | null, c: Context<AppEnv>): void {
  const { spec } = operation
  const key = c.get('apiKey')
  if (key && spec.access !== 'key-pair') {
    if (!spec.apiKeys) throw new AppError('forbidden', 'apiKeys.notForThisRoute')
    if (!scopeAllows(key.scope, spec.readsOnly ? 'GET' : spec.method))
      throw new AppError('forbidden', 'apiKeys.readOnly')
  }
  if (spec.access === 'public' || spec.access === 'key-pair') return
  if (!actor) throw new AppError('not_authenticated', spec.unauthenticatedMessage)
  if (spec.access === 'global-admin' && actor.globalRole !== 'global_admin') {
    throw new AppError('forbidden', 'error.globalAdminRequired')
  }
  if (needsRecentSignIn(spec) && !isRecent(c.get('signedInAt'))) {
    throw new AppError('forbidden', 'auth.reauthenticationRequired', { reason: REAUTHENTICATION_REQUIRED })
  }
}

/** A session's sign-in within `RECENT_SIGN_IN_SECONDS` (a key has none: it never counts as recent). */
function isRecent(signedInAt: Date | null | undefined): boolean {
  return signedInAt != null && Date.now() - signedInAt.getTime() <= RECENT_SIGN_IN_SECONDS * 1000
}

/** An answer or error its declaration does not allow: a 500 in tests, printed so the test shows why. */
class ContractViolation extends Error {
  constructor(operation: Operation, detail: string) {
    super(`${operation.id} (${operation.spec.method} ${operation.spec.path}) broke its contract: ${detail}`)
    this.name = 'ContractViolation'
    console.error(this.message)
  }
}

/**
 * Mounts each operation of a group on the app under `/api<path>`: the access rule first, then the
 * path parameters (a malformed id is the same 404 as a missing object), the query and the body,
 * then the handler; the answer is its result as JSON with the operation's status, or 204.
 */
export function mountOperations<G extends Record<string, unknown>>(
  app: Hono<AppEnv>,
  group: G,
  handlers: Handlers<G>,
  options: MountOptions = {},
): void {
  for (const [name, operation] of Object.entries(group)) {
    if (name === '$group') continue
    const { spec } = operation as Operation
    const handler = (handlers as Record<string, Handler<OperationSpec>>)[name]!
    const status = successStatus(spec)
    const door = spec.access === 'key-pair' ? options.keyPair : undefined
    if (spec.access === 'key-pair' && !door) throw new Error(`${name}: a key-pair operation needs keyPair`)
    const envelope = spec.errorEnvelope ?? 'promptfolio'
    const renderError = envelope === 'promptfolio' ? undefined : options.envelopes?.[envelope]
    if (envelope !== 'promptfolio' && !renderError) throw new Error(`${name}: no renderer for ${envelope}`)
    const serve = async (c: Context<AppEnv>) => {
      const actor = actorOf(c)
      authorize(operation as Operation, actor, c)
      const keyPair = door ? await door.credentials(c) : null
      const checksItself = handler[checksKey] === true
      if (door && !checksItself) await door.admit(c, keyPair!)
      let input: ParsedInput<OperationSpec>
      try {
        input = {
          params: spec.params ? pathParams(c, spec.params) : {},
          query: spec.query ? queryParams(c, spec.query) : {},
          body: spec.body
            ? spec.streamsBodyAt
              ? await streamedJsonBody(c, spec.body, spec.streamsBodyAt)
              : await jsonBody(c, spec.body)
            : undefined,
        } as ParsedInput<OperationSpec>
      } catch (error) {
        if (door && checksItself) await door.admit(c, keyPair!)
        throw error
      }
      // Only where it is used: reading the raw request makes the Node adapter build a whole one.
      const signal = spec.streamsText ? c.req.raw.signal : NEVER_ABORTED
      const run = (
        progress: HandlerContext<OperationSpec>['progress'],
        text: HandlerContext<OperationSpec>['text'] = async () => {},
      ) => {
        // One literal of fixed shape, not a spread of `input`: the spread made V8 build and migrate
        // a hidden class on every request (perf: about 3% of the runtime fetch's server CPU).
        const call = () =>
          handler({
            params: input.params,
            query: input.query,
            body: input.body,
            actor: actor as Actor,
            keyPair: keyPair as never,
            c,
            progress,
            text,
            signal,
          })
        return options.checkContracts ? checked(operation as Operation, call) : call()
      }
      const accept = c.req.header('Accept') ?? ''
      if (spec.streamsProgress && accept.includes(PROGRESS_CONTENT_TYPE)) {
        return progressResponse(c, run)
      }
      if (spec.streamsText && accept.includes(EVENT_STREAM_CONTENT_TYPE)) {
        return eventStreamResponse(c, (text) => run(async () => {}, text))
      }
      const result = await run(async () => {})
      if (door && !c.get('apiKey')) throw new Error(`${name}: answered without admitting its key`)
      if (result instanceof Response) return result
      if (status === 204) return c.body(null, 204)
      return jsonAnswer(c, result, status)
    }
    routeOperation(
      app,
      spec.method,
      `/api${spec.path}`,
      renderError
        ? async (c) => {
            try {
              return await serve(c)
            } catch (error) {
              return renderError(error as Error, c)
            }
          }
        : serve,
    )
  }
}

async function checked(operation: Operation, run: () => Promise<unknown>): Promise<unknown> {
  let result: unknown
  try {
    result = await run()
  } catch (error) {
    if (error instanceof AppError && !errorCodesOf(operation.spec).has(error.code)) {
      throw new ContractViolation(operation, `answered the undeclared error '${error.code}'`)
    }
    throw error
  }
  const { response } = operation.spec
  if (response === null) {
    if (result !== undefined) throw new ContractViolation(operation, 'returned a body for a 204')
    return result
  }
  // A 304 or an encoded answer the handler built carries no JSON to check.
  if (result instanceof Response && (result.status !== 200 || result.headers.has('Content-Encoding'))) {
    return result
  }
  const parsed = response.safeParse(result instanceof Response ? await result.clone().json() : result)
  if (!parsed.success) {
    throw new ContractViolation(operation, `answer does not match its schema: ${parsed.error.message}`)
  }
  return result
}
