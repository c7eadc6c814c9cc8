import { dictionary } from '@zxcvbn-ts/language-common'
import { AppError } from '../../domain/errors.ts'

/** The ~49,000 most common passwords of leaked-password lists (zxcvbn's), lowercased. */
const commonPasswords = new Set(dictionary['passwords-common'].map((password) => password.toLowerCase()))

/**
 * Whether a new password is one of the most common ones (ASVS 6.2.4), ignoring case: the password
 * itself, or a common one with digits or punctuation added at the end ('password1234',
 * 'Sunshine2024!'), which meets the length rule without being any harder to guess.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase()
  if (commonPasswords.has(lower)) return true
  const stem = lower.replace(/[\d\W_]+$/, '')
  return stem !== lower && stem.length >= 4 && commonPasswords.has(stem)
}

/**
 * Refuses a common password for `field` with the spec's 'Password does not meet the requirements'
 * and the reason next to the field. Every route that sets a password calls it after validation.
 */
export function assertNotCommonPassword(password: string, field: string): void {
  if (isCommonPassword(password)) {
    throw new AppError('validation', 'auth.weakPassword', { fields: { [field]: 'auth.commonPassword' } })
  }
}
