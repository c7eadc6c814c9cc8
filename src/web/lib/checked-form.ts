import { type ChangeEvent, type FormEvent, useRef, useState } from 'react'
import type { Checked } from '../../domain/auth-checks.ts'
import { fieldText } from './forms.ts'

type Values = Record<string, string | boolean>
type TextField<T> = { [K in keyof T & string]: T[K] extends string ? K : never }[keyof T & string]

/**
 * A small form for the sign-in pages, which do not load react-hook-form or zod (decision 0220). It
 * behaves as those pages' react-hook-form forms did: nothing is checked before the first submit;
 * a submit checks every field with `check` (a plain check from `src/domain/auth-checks.ts`),
 * shows the first problem of each and focuses the first field with one, or hands the parsed
 * values on; after a submit, a field is checked again as it changes.
 */
export function useCheckedForm<T extends Values>(initial: T, check: (values: T) => Checked<T>) {
  const [values, setValues] = useState(initial)
  const [errors, setErrors] = useState<Partial<Record<keyof T & string, string>>>({})
  const [isSubmitting, setSubmitting] = useState(false)
  /** The values as of the last change, for changes and a submit that follow before a render. */
  const latest = useRef(initial)
  const submitted = useRef(false)
  /** Counts the resets: a submit that a reset overtook leaves the form as the reset left it. */
  const resets = useRef(0)

  const setValue = <K extends keyof T & string>(name: K, value: T[K]) => {
    latest.current = { ...latest.current, [name]: value }
    setValues(latest.current)
  }

  const setError = (name: keyof T & string, error: { message: string }) =>
    setErrors((current) => ({ ...current, [name]: error.message }))

  /** A field's new value; after a submit, its problem (or none) is shown again. */
  const change = <K extends keyof T & string>(name: K, value: T[K]) => {
    setValue(name, value)
    if (!submitted.current) return
    const result = check(latest.current)
    const problem = result.ok ? undefined : result.errors[name]
    setErrors((current) => ({ ...current, [name]: problem }))
  }

  return {
    values,
    isSubmitting,
    /** The text of a field's problem, in the user's language (a server's text as it came). */
    error: (name: keyof T & string) => fieldText(errors[name]),
    /** An input's name, value and change handler; `clean` rewrites what is typed. */
    register: (name: TextField<T>, options: { clean?: (value: string) => string } = {}) => ({
      name,
      value: values[name] as string,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        const typed = event.target.value
        change(name, (options.clean ? options.clean(typed) : typed) as T[typeof name])
      },
    }),
    change,
    setValue,
    setError,
    /** Starts over with `next` (the initial values when left out): no problems, not yet submitted. */
    reset: (next: T = initial) => {
      resets.current++
      submitted.current = false
      latest.current = next
      setValues(next)
      setErrors({})
      setSubmitting(false)
    },
    handleSubmit:
      (onValid: (value: T) => Promise<void> | void) => async (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault()
        const reset = resets.current
        const result = check(latest.current)
        submitted.current = true
        setErrors(result.ok ? {} : result.errors)
        if (!result.ok) {
          // The first field on the page with a problem takes the focus.
          const problems: Partial<Record<string, string>> = result.errors
          const first = [...event.currentTarget.elements].find(
            (element) => element instanceof HTMLInputElement && problems[element.name],
          )
          if (first instanceof HTMLInputElement) first.focus()
          return
        }
        setSubmitting(true)
        try {
          await onValid(result.value)
        } finally {
          if (reset === resets.current) setSubmitting(false)
        }
      },
  }
}
