import type { FieldErrors, FieldValues, Path } from 'react-hook-form'
import { toast } from '../components/ui/toast.tsx'
import { isMessageKey, message } from '../i18n/index.ts'
import { ApiError } from './api.ts'

/**
 * The text of a field's error. Client-side errors carry a message key from the shared schemas;
 * server-side errors arrive already translated.
 */
export function fieldText(text: unknown): string | undefined {
  if (typeof text !== 'string' || text === '') return undefined
  return isMessageKey(text) ? message(text) : text
}

/** The text of a react-hook-form field's error (see `fieldText`). */
export function fieldError<T extends FieldValues>(errors: FieldErrors<T>, name: Path<T>): string | undefined {
  return fieldText((errors as Record<string, { message?: unknown } | undefined>)[name]?.message)
}

/** How a form takes an error for one of its fields: react-hook-form's `setError`, or a checked form's. */
type SetFieldError<N extends string> = (name: N, error: { type: 'server'; message: string }) => void

/** Puts the server's field errors next to their fields and returns the summary text to show. */
export function applyServerErrors<N extends string>(
  setError: SetFieldError<N>,
  error: unknown,
  fallback: string,
): string {
  if (!(error instanceof ApiError)) return fallback
  for (const [name, text] of Object.entries(error.fields)) {
    setError(name as N, { type: 'server', message: text })
  }
  return error.message || fallback
}

/**
 * A failed submit of a form without a summary line of its own: the server's field errors go next
 * to their fields; any other failure is an error toast, `failedTitle` with the server's reason.
 */
export function reportSubmitError<N extends string>(
  setError: SetFieldError<N>,
  error: unknown,
  failedTitle: string,
) {
  const text = applyServerErrors(setError, error, '')
  const aboutFields = error instanceof ApiError && Object.keys(error.fields).length > 0
  if (!aboutFields) toast({ title: failedTitle, description: text || undefined, tone: 'error' })
}
