import { dictionary } from '@zxcvbn-ts/language-common'

/**
 * The ~49,000 most common passwords of leaked-password lists (zxcvbn's), lowercased. A module of
 * its own so that common-passwords.ts can load it on first use: unpacking zxcvbn's dictionaries
 * took about 25 ms of every start.
 */
export const commonPasswords = new Set(
  dictionary['passwords-common'].map((password) => password.toLowerCase()),
)
