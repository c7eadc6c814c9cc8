import type { Context } from 'hono'
import type { z } from 'zod'
import { AppError } from '../../domain/errors.ts'
import { fieldErrorsOf } from '../../domain/validation.ts'

function validated<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) {
    const fields = fieldErrorsOf(result.error)
    // The first field's message doubles as the summary, so a client without field display still
    // shows the specific reason.
    const first = Object.values(fields)[0] ?? 'error.validation'
    throw new AppError('validation', first, { fields })
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

/** Validates a path parameter (e.g. a uuid); an invalid one reads as "not found". */
export function pathParam<S extends z.ZodType>(
  value: string | undefined,
  schema: S,
  notFound: AppError,
): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) throw notFound
  return result.data
}
