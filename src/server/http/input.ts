import type { Context } from 'hono'
import type { z } from 'zod'
import { AppError, type AppErrorOptions } from '../../domain/errors.ts'
import { isMessageKey, type MessageKey } from '../../domain/messages/index.ts'
import { fieldErrorsOf, issueParamsOf } from '../../domain/validation.ts'

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const unpairedSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

interface Visit {
  value: unknown
  key: string | null
  parent: Visit | null
}

function pathOf(visit: Visit): string {
  const keys: string[] = []
  for (let at: Visit | null = visit; at?.key != null; at = at.parent) keys.unshift(at.key)
  return keys.length > 0 ? keys.join('.') : '_'
}

/**
 * The path (as zod names it: `tags.1`) of the first string PostgreSQL cannot store: one holding
 * U+0000 (refused by text and JSON columns) or an unpaired surrogate (refused by JSON columns,
 * silently replaced in text ones). Iterative and without copying paths, so a deeply nested body
 * costs linear time.
 */
export function firstUnstorableText(value: unknown): string | null {
  const pending: Visit[] = [{ value, key: null, parent: null }]
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const current = visit.value
    if (typeof current === 'string') {
      if (current.includes('\u0000') || unpairedSurrogate.test(current)) return pathOf(visit)
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

function validated<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const unstorableAt = firstUnstorableText(value)
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

/** Parses the query string (repeated keys become arrays) with a domain schema. */
export function queryParams<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const all = c.req.queries()
  const value = Object.fromEntries(
    Object.entries(all).map(([key, values]) => [key, values.length > 1 ? values : values[0]]),
  )
  return validated(schema, value)
}

/**
 * Parses the path parameters with the operation's schema. A value it refuses cannot name one of
 * our objects, so it is answered as "not found", with the message of the parameter's schema.
 */
export function pathParams<S extends z.ZodObject>(c: Context, schema: S): z.output<S> {
  const result = schema.safeParse(c.req.param())
  // A value the database cannot store (U+0000 in a name) names nothing either.
  if (result.success && firstUnstorableText(result.data) !== null) {
    throw new AppError('not_found', 'error.unstorableCharacter')
  }
  if (result.success) return result.data
  const message = result.error.issues[0]?.message as MessageKey | undefined
  throw new AppError('not_found', message && isMessageKey(message) ? message : 'error.notFound')
}
