import { AppError } from '../../domain/errors.ts'

/** The list, loaded with the first check (see common-passwords-list.ts). */
const loadCommonPasswords = async () => (await import('./common-passwords-list.ts')).commonPasswords

/**
 * Whether a new password is one of the most common ones (ASVS 6.2.4), ignoring case: the password
 * itself, or a common one with digits or punctuation added at the end ('password1234',
 * 'Sunshine2024!'), which meets the length rule without being any harder to guess.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  const common = await loadCommonPasswords()
  const lower = password.toLowerCase()
  if (common.has(lower)) return true
  const stem = lower.replace(/[\d\W_]+$/, '')
  return stem !== lower && stem.length >= 4 && common.has(stem)
}

/**
 * Refuses a common password for `field` with the spec's 'Password does not meet the requirements'
 * and the reason next to the field. Every route that sets a password calls it after validation.
 */
export async function assertNotCommonPassword(password: string, field: string): Promise<void> {
  if (await isCommonPassword(password)) {
    throw new AppError('validation', 'auth.weakPassword', { fields: { [field]: 'auth.commonPassword' } })
  }
}
