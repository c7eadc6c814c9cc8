import type { FieldErrors, FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { toast } from '../components/ui/toast.tsx'
import { isMessageKey, message } from '../i18n/index.ts'
import { ApiError } from './api.ts'

/**
 * The text of a field's error. Client-side errors carry a message key from the shared schemas;
 * server-side errors arrive already translated.
 */
export function fieldError<T extends FieldValues>(errors: FieldErrors<T>, name: Path<T>): string | undefined {
  const text = (errors as Record<string, { message?: unknown } | undefined>)[name]?.message
  if (typeof text !== 'string' || text === '') return undefined
  return isMessageKey(text) ? message(text) : text
}

/** Puts the server's field errors next to their fields and returns the summary text to show. */
export function applyServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fallback: string,
): string {
  if (!(error instanceof ApiError)) return fallback
  for (const [name, text] of Object.entries(error.fields)) {
    setError(name as Path<T>, { type: 'server', message: text })
  }
  return error.message || fallback
}

/**
 * A failed submit of a form without a summary line of its own: the server's field errors go next
 * to their fields; any other failure is an error toast, `failedTitle` with the server's reason.
 */
export function reportSubmitError<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  failedTitle: string,
) {
  const text = applyServerErrors(setError, error, '')
  const aboutFields = error instanceof ApiError && Object.keys(error.fields).length > 0
  if (!aboutFields) toast({ title: failedTitle, description: text || undefined, tone: 'error' })
}
