import type { z } from 'zod'
import { isMessageKey, type MessageKey } from './messages/index.ts'

/**
 * Schemas in src/domain use message keys as their error messages, so the same schema yields the same
 * localized text in a form and in an API answer. The first issue of each field wins.
 */
/**
 * The values a schema gave its first message that names some (`params` of a custom issue, e.g. the
 * variable a "declared twice" names): the answer's message and fields are filled with them.
 */
export function issueParamsOf(error: z.ZodError): Record<string, string | number> | undefined {
  for (const issue of error.issues) {
    if (issue.code === 'custom' && issue.params) return issue.params as Record<string, string | number>
  }
  return undefined
}

export function fieldErrorsOf(error: z.ZodError): Record<string, MessageKey> {
  const fields: Record<string, MessageKey> = {}
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : '_'
    if (field in fields) continue
    fields[field] = isMessageKey(issue.message) ? issue.message : 'error.invalidValue'
  }
  return fields
}
