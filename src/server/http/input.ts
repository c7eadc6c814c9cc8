import type { Context } from 'hono'
import type { z } from 'zod'
import { AppError, type AppErrorOptions } from '../../domain/errors.ts'
import { isMessageKey, type MessageKey } from '../../domain/messages/index.ts'
import { fieldErrorsOf, issueParamsOf } from '../../domain/validation.ts'
import { type JsonPath, JsonStreamParser, JsonSyntaxError } from './json-stream.ts'

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const unpairedSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

interface Visit {
  value: unknown
  key: string | null
  parent: Visit | null
}

function keysOf(visit: Visit): string[] {
  const keys: string[] = []
  for (let at: Visit | null = visit; at?.key != null; at = at.parent) keys.unshift(at.key)
  return keys
}

/**
 * The path (as zod names it: `tags.1`) of the first string PostgreSQL cannot store: one holding
 * U+0000 (refused by text and JSON columns) or an unpaired surrogate (refused by JSON columns,
 * silently replaced in text ones). Iterative and without copying paths, so a deeply nested body
 * costs linear time.
 */
export function firstUnstorableText(value: unknown): string | null {
  const keys = firstUnstorableTextKeys(value)
  return keys === null ? null : keys.length > 0 ? keys.join('.') : '_'
}

/** `firstUnstorableText`'s path as its keys (a key may hold a dot). */
function firstUnstorableTextKeys(value: unknown): string[] | null {
  const pending: Visit[] = [{ value, key: null, parent: null }]
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const current = visit.value
    if (typeof current === 'string') {
      if (current.includes('\u0000') || unpairedSurrogate.test(current)) return keysOf(visit)
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current).reverse()) {
        pending.push({ value: item, key, parent: visit })
      }
    }
  }
  return null
}

/**
 * Input the schema refused, with zod's issues and the input itself, for an error envelope that
 * lists issues in its own words (Langfuse's).
 */
export class InvalidInput extends AppError {
  constructor(
    messageKey: MessageKey,
    options: AppErrorOptions,
    readonly issues: readonly z.core.$ZodIssue[],
    readonly input: unknown,
  ) {
    super('validation', messageKey, options)
  }
}

function validated<S extends z.ZodType>(
  schema: S,
  value: unknown,
  unstorableAt = firstUnstorableText(value),
): z.output<S> {
  if (unstorableAt !== null) {
    throw new AppError('validation', 'error.unstorableCharacter', {
      fields: { [unstorableAt]: 'error.unstorableCharacter' },
    })
  }
  const result = schema.safeParse(value)
  if (!result.success) {
    const fields = fieldErrorsOf(result.error)
    // The first field's message doubles as the summary, so a client without field display still
    // shows the specific reason.
    const first = Object.values(fields)[0] ?? 'error.validation'
    throw new InvalidInput(first, { fields, params: issueParamsOf(result.error) }, result.error.issues, value)
  }
  return result.data
}

/** Parses the JSON body with a domain schema: malformed JSON and invalid fields are 400s. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text()
  let value: unknown
  try {
    value = text === '' ? {} : JSON.parse(text)
  } catch {
    throw new AppError('validation', 'error.malformedJson')
  }
  return validated(schema, value)
}

/** Bytes parsed at a time when a streamed array's elements are read again: one element's worth or so. */
const REPLAY_PIECE = 64 * 1024

/**
 * An array of a JSON body that `streamedJsonBody` did not build: the bytes of the body are kept,
 * and each element is parsed again as `elements()` comes to it, so the whole array never exists.
 * Its fields are private so a walk of the document (the stored-text check) does not enter them.
 */
export class StreamedArray {
  readonly #pieces: readonly Uint8Array[]
  readonly #at: JsonPath
  /** Which array at that path this is (a repeated key starts another; the last one is the value). */
  readonly #occurrence: number
  #length = 0

  constructor(pieces: readonly Uint8Array[], at: JsonPath, occurrence: number) {
    this.#pieces = pieces
    this.#at = at
    this.#occurrence = occurrence
  }

  get length(): number {
    return this.#length
  }

  /** Counted while the body is read. */
  added(): void {
    this.#length++
  }

  /** The elements in order, each parsed when asked for. */
  async *elements(): AsyncGenerator<unknown> {
    let started = 0
    let ready: unknown[] = []
    const parser = new JsonStreamParser({
      streamAt: this.#at,
      onStreamStart: () => {
        started++
      },
      onElement: (value) => {
        if (started === this.#occurrence) ready.push(value)
      },
    })
    for (const piece of this.#pieces) {
      for (let at = 0; at < piece.length; at += REPLAY_PIECE) {
        parser.write(piece.subarray(at, at + REPLAY_PIECE))
        if (ready.length === 0) continue
        const elements = ready
        ready = []
        yield* elements
      }
      if (started > this.#occurrence) return
    }
  }
}

/** Where a streamed array sits, and the path in it of its first string the database cannot store. */
interface Streamed {
  array: StreamedArray
  parent: Record<string, unknown> | unknown[] | null
  key: string | number
  unstorable: string[] | null
}

/**
 * `jsonBody` for a body whose array at `at` may be long (an import's prompts): the body is read as
 * it arrives and parsed piece by piece; that array's elements are checked one at a time and left
 * as a `StreamedArray` in the value, its bytes kept (a fraction of its text as a string, and of its
 * tree). Everything else is what `jsonBody` answers: an empty body is `{}`, malformed JSON, a string
 * the database cannot store (the first in the document's order) and schema errors the same 400s.
 */
export async function streamedJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  at: JsonPath,
): Promise<z.output<S>> {
  const pieces: Uint8Array[] = []
  const streamed: Streamed[] = []
  const parser = new JsonStreamParser({
    streamAt: at,
    onStreamStart: (parent, key) => {
      const array = new StreamedArray(pieces, at, streamed.length + 1)
      streamed.push({ array, parent, key, unstorable: null })
      return array
    },
    onElement: (element, index) => {
      const current = streamed.at(-1)!
      current.array.added()
      if (current.unstorable) return
      const keys = firstUnstorableTextKeys(element)
      if (keys) current.unstorable = [String(index), ...keys]
    },
  })
  let malformed = false
  const body = c.req.raw.body
  if (body) {
    for await (const piece of body as unknown as AsyncIterable<Uint8Array>) {
      // Read to its end even when malformed, as the whole body was read before it was parsed.
      if (malformed) continue
      pieces.push(piece)
      try {
        parser.write(piece)
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error
        malformed = true
      }
    }
  }
  if (malformed) throw new AppError('validation', 'error.malformedJson')
  if (parser.empty) return validated(schema, {})
  let value: unknown
  try {
    value = parser.end()
  } catch {
    throw new AppError('validation', 'error.malformedJson')
  }
  // The stored-text check walks the document with, in the place of each streamed array still in
  // it, the path to that array's first unstorable string: the order of the whole walk is kept.
  const placed = streamed.filter(
    (entry) =>
      entry.unstorable &&
      entry.parent !== null &&
      (entry.parent as Record<string, unknown>)[entry.key] === entry.array,
  )
  for (const entry of placed)
    (entry.parent as Record<string, unknown>)[entry.key] = shadowOf(entry.unstorable!)
  const unstorableAt = firstUnstorableText(value)
  for (const entry of placed) (entry.parent as Record<string, unknown>)[entry.key] = entry.array
  return validated(schema, value, unstorableAt)
}

/** An object holding only, at `keys`, a string the database cannot store. */
function shadowOf(keys: readonly string[]): unknown {
  return keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), '\u0000')
}

/**
 * Query strings already parsed, by schema and raw text. Clients repeat the same few (a runtime fetch
 * asks `?label=production` thousands of times a second): parsing one again was about 4% of that
 * fetch's server CPU. Only short ones are kept, at most `KEPT_QUERIES` per schema (then the
 * schema's are dropped at once), and frozen: every request of that text gets the same object.
 */
const parsedQueries = new WeakMap<z.ZodType, Map<string, unknown>>()
const KEPT_QUERY_MAX_LENGTH = 256
const KEPT_QUERIES = 64

/** Parses the query string (repeated keys become arrays) with a domain schema. */
export function queryParams<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const url = c.req.url
  const at = url.indexOf('?')
  const raw = at < 0 ? '' : url.slice(at + 1)
  // Hono reads the query up to a '#' (which a client may send in the request line): such a URL's
  // text after the '?' is not what was parsed, so it is neither looked up nor kept.
  const keepable = raw.length <= KEPT_QUERY_MAX_LENGTH && !url.includes('#')
  const kept = keepable ? parsedQueries.get(schema) : undefined
  const known = kept?.get(raw)
  if (known !== undefined) return known as z.output<S>
  const all = c.req.queries()
  const value = validated(
    schema,
    Object.fromEntries(
      Object.entries(all).map(([key, values]) => [key, values.length > 1 ? values : values[0]]),
    ),
  )
  if (keepable) {
    const queries = kept ?? new Map<string, unknown>()
    if (!kept) parsedQueries.set(schema, queries)
    if (queries.size >= KEPT_QUERIES) queries.clear()
    queries.set(raw, deepFrozen(value))
  }
  return value
}

/**
 * The query `queryParams` parsed and kept for this schema and raw text (after the `?`), or
 * undefined: for a caller without Hono's context that serves only what went through it before.
 */
export function keptQuery<S extends z.ZodType>(schema: S, raw: string): z.output<S> | undefined {
  return parsedQueries.get(schema)?.get(raw) as z.output<S> | undefined
}

/** `value` with every object and array in it frozen (a handler that changed one would throw). */
function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const item of Object.values(value)) deepFrozen(item)
  }
  return value
}

/** A parameter's name and the pattern its schema holds it to. */
type UuidParam = readonly [name: string, pattern: RegExp]

/**
 * The parameters of a schema made only of plain UUIDs (`idParam`: no transform, no other check),
 * or null for any other; worked out once per schema.
 */
const uuidParamsOf = new WeakMap<z.ZodObject, readonly UuidParam[] | null>()

function uuidParams(schema: z.ZodObject): readonly UuidParam[] | null {
  let params = uuidParamsOf.get(schema)
  if (params !== undefined) return params
  const def = schema._zod.def
  const entries = Object.entries(def.shape).map(([name, field]) => {
    const { format, pattern, checks } = field._zod.def as {
      format?: string
      pattern?: RegExp
      checks?: unknown[]
    }
    return format === 'uuid' && pattern instanceof RegExp && !checks?.length
      ? ([name, pattern] as const)
      : null
  })
  params = def.catchall === undefined && entries.every((entry) => entry !== null) ? entries : null
  uuidParamsOf.set(schema, params)
  return params
}

/**
 * Parses the path parameters with the operation's schema. A value it refuses cannot name one of
 * our objects, so it is answered as "not found", with the message of the parameter's schema.
 *
 * Ids alone (most paths) are checked against their pattern, each read by its name: what zod would
 * answer for them, for about 5 µs less of every such request's server CPU (`npm run bench:ab`). A
 * UUID holds no text the database cannot store. Any value the pattern refuses goes through zod for
 * its message.
 */
export function pathParams<S extends z.ZodObject>(c: Context, schema: S): z.output<S> {
  const uuids = uuidParams(schema)
  if (uuids) {
    const value: Record<string, string> = {}
    let valid = true
    for (const [name, pattern] of uuids) {
      const text = c.req.param(name)
      if (typeof text !== 'string' || !pattern.test(text)) {
        valid = false
        break
      }
      value[name] = text
    }
    if (valid) return value as z.output<S>
  }
  const result = schema.safeParse(c.req.param())
  // A value the database cannot store (U+0000 in a name) names nothing either.
  if (result.success && firstUnstorableText(result.data) !== null) {
    throw new AppError('not_found', 'error.unstorableCharacter')
  }
  if (result.success) return result.data
  const message = result.error.issues[0]?.message as MessageKey | undefined
  throw new AppError('not_found', message && isMessageKey(message) ? message : 'error.notFound')
}
