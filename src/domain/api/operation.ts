import { z } from 'zod'
import type { ErrorCode } from '../errors.ts'
import type { MessageKey } from '../messages/index.ts'
import type { Permission } from '../permissions.ts'
import type { OperationAddress } from './address.ts'

export type { HttpMethod, OperationAddress } from './address.ts'
export { operationUrl } from './address.ts'

/**
 * Who may call an operation at all; the rules about one object (the owner of a prompt, a team's
 * admins) are the operation's `permission`, checked by its service with the permission tables.
 * - public: anyone, signed in or not;
 * - signed-in: a signed-in user (401 otherwise);
 * - global-admin: a signed-in global admin (403 'Global admin access required' otherwise);
 * - key-pair: an API key, as Langfuse's clients send it (`Authorization: Basic` with the key's
 *   public and secret parts); the key's space acts (a user's or a team's), never a session.
 */
export type Access = 'public' | 'signed-in' | 'global-admin' | 'key-pair'

/**
 * The shape of an operation's error answers: ours (`{error: {code, message, ...}}`, the default),
 * or Langfuse's (`{message, error}`, the error's name in `error`) for the operations its SDKs call.
 */
export type ErrorEnvelope = 'promptfolio' | 'langfuse'

/**
 * One declaration per API operation: its method and path, the schemas of its path parameters,
 * query, body and answer, who may call it and the errors it may answer. The server mounts the
 * operation from it, the OpenAPI document describes it from it, and the web app calls it through
 * it; nothing else spells out an API path (a group whose pages must not load zod takes its
 * methods and paths from a table of addresses, see `address.ts`).
 */
export interface OperationSpec extends OperationAddress {
  summary: string
  access: Access
  /**
   * The path parameters. A value the schema refuses cannot name an object of ours, so it is
   * answered like a missing one: 404 with the schema's message (see `idParam`).
   */
  params?: z.ZodObject
  query?: z.ZodObject
  body?: z.ZodType
  /** The answer's schema; null for an operation that answers 204 without a body. */
  response: z.ZodType | null
  /** 201 for an operation that creates; 200 otherwise (204 when `response` is null). */
  created?: true
  /**
   * Errors beyond the ones implied by the declaration (validation with a query or body, not_found
   * with path parameters, not_authenticated unless public, forbidden for global-admin, forbidden,
   * rate_limited and plan_limit for key-pair, payload_too_large with a body, unexpected and
   * transient always).
   */
  errors?: readonly ErrorCode[]
  /** The object-level rule its service applies, named for the API documents and the matrix. */
  permission?: Permission
  /** The 401's message where the spec words it for this action (default 'Authentication required'). */
  unauthenticatedMessage?: MessageKey
  /**
   * Only with a recent sign-in (`RECENT_SIGN_IN_SECONDS`): an action that leaves a lasting way in
   * (a key, a webhook, its secret), so a stolen session cannot make one. Refused otherwise with 403
   * and the reason `reauthentication_required`; the caller signs in again (`auth.reauthenticate`)
   * and retries. A global admin's change needs it without saying so (`needsRecentSignIn`).
   */
  recentSignIn?: true
  /** A POST that changes nothing (compile): read-only API keys may call it. */
  readsOnly?: true
  /**
   * A personal API key (`Authorization: Bearer`) may call it, as its owner: the prompt operations
   * that code needs. Any other operation refuses a key with 403. (A `key-pair` operation is called
   * by keys only, whatever this says.)
   */
  apiKeys?: true
  /** The shape of its error answers (default 'promptfolio'). */
  errorEnvelope?: ErrorEnvelope
  /**
   * A long write that reports its progress: asked with `Accept: application/x-ndjson`, it answers
   * 200 with lines `{"progress":{"done","total"}}` and a last line `{"result":…}` (its answer) or
   * `{"status":…,"error":…}` (its error); asked for JSON it answers as any operation.
   */
  streamsProgress?: true
  /**
   * Where a long array of the body is (an import's prompts): the server reads the body as it
   * arrives and leaves that array unbuilt, handing the handler its elements one at a time
   * (`StreamedArray` in its place); the body is the same JSON, with the same errors.
   */
  streamsBodyAt?: readonly string[]
  /**
   * An answer that is written as it comes (a model's reply): asked with `Accept: text/event-stream`,
   * it answers 200 with server-sent events `text` (`{"text"}`, a piece of the answer), then one
   * `result` (its answer) or `error` (`{"status","error"}`, its error); asked for JSON it answers as
   * any operation. Closing the connection aborts the handler's `signal`.
   */
  streamsText?: true
}

export interface Operation<S extends OperationSpec = OperationSpec> {
  /** `<group>.<name>`, e.g. `prompts.list`. */
  readonly id: string
  readonly group: string
  readonly name: string
  readonly spec: S
}

export interface OperationGroup {
  /** The API documents' tag. */
  title: string
  description: string
}

/**
 * Declares a group of operations (one API area): `defineOperations('prompts', {...}, { list: ... })`.
 * Each operation gets its id and keeps its spec's literal types for the server and the web client.
 */
export function defineOperations<const T extends Record<string, OperationSpec>>(
  group: string,
  info: OperationGroup,
  specs: T,
): { readonly [K in keyof T]: Operation<T[K]> } & { readonly $group: OperationGroup & { name: string } } {
  const operations = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, { id: `${group}.${name}`, group, name, spec }]),
  )
  return { ...operations, $group: { ...info, name: group } } as never
}

/** Every operation of a group made by `defineOperations`, in declaration order. */
export function operationsOf(group: Record<string, unknown>): Operation[] {
  return Object.entries(group)
    .filter(([key]) => key !== '$group')
    .map(([, operation]) => operation as Operation)
}

/** A uuid path parameter; anything else names nothing and is answered with `notFound`. */
export function idParam(notFound: MessageKey) {
  return z.uuid({ error: notFound })
}

/** The HTTP status of a successful answer. */
export function successStatus(spec: OperationSpec): 200 | 201 | 204 {
  if (spec.response === null) return 204
  return spec.created ? 201 : 200
}

/** Whether the operation needs a recent sign-in: declared so, or a global admin's change. */
export function needsRecentSignIn(spec: OperationSpec): boolean {
  return spec.recentSignIn === true || (spec.access === 'global-admin' && spec.method !== 'GET')
}

/** The reason of the 403 that asks the caller to sign in again (see `recentSignIn`). */
export const REAUTHENTICATION_REQUIRED = 'reauthentication_required'

/** The errors an operation may answer: the implied ones and the declared ones. */
export function errorCodesOf(spec: OperationSpec): Set<ErrorCode> {
  const codes = new Set<ErrorCode>(['unexpected', 'transient', ...(spec.errors ?? [])])
  if (spec.access !== 'public') codes.add('not_authenticated')
  if (spec.access === 'global-admin' || needsRecentSignIn(spec)) codes.add('forbidden')
  // A key pair is refused as a Bearer public key (403), counted (429) and its plan checked.
  if (spec.access === 'key-pair')
    for (const code of ['forbidden', 'rate_limited', 'plan_limit'] as const) codes.add(code)
  if (spec.body || spec.query) codes.add('validation')
  if (spec.body) codes.add('payload_too_large')
  if (spec.params) codes.add('not_found')
  return codes
}

/** A list's answer: one page and the cursor of the next (null on the last page or unpaged lists). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() })
}

// A part whose fields are all optional (or that may be absent) may be left out.
type InputPart<S, K extends 'params' | 'query' | 'body'> =
  S extends Record<K, infer P>
    ? P extends z.ZodType
      ? undefined extends z.input<P>
        ? { [_ in K]?: z.input<P> }
        : Record<string, never> extends z.input<P>
          ? { [_ in K]?: z.input<P> }
          : { [_ in K]: z.input<P> }
      : unknown
    : unknown

/** What a caller sends: `{ params, query, body }`, each present when the operation has it. */
export type OperationInput<O extends Operation> = InputPart<O['spec'], 'params'> &
  InputPart<O['spec'], 'query'> &
  InputPart<O['spec'], 'body'>

/** What the server's handler receives after validation (schemas' outputs). */
export type ParsedInput<S extends OperationSpec> = {
  params: S['params'] extends z.ZodType ? z.output<S['params']> : Record<string, never>
  query: S['query'] extends z.ZodType ? z.output<S['query']> : Record<string, never>
  body: S['body'] extends z.ZodType ? z.output<S['body']> : undefined
}

/** The answer's type; void for 204. */
export type OperationOutput<O extends Operation> = O['spec']['response'] extends z.ZodType
  ? z.output<O['spec']['response']>
  : undefined
