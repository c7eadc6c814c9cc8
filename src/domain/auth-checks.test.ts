import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import {
  adminSetPasswordInput,
  directResetInput,
  newPasswordInput,
  sendCodeInput,
  signInInput,
  signUpInput,
  verifyCodeInput,
} from './auth.ts'
import {
  type Checked,
  checkAdminSetPassword,
  checkDirectReset,
  checkNewPassword,
  checkSendCode,
  checkSignIn,
  checkSignUp,
  checkVerifyCode,
} from './auth-checks.ts'
import { fieldErrorsOf } from './validation.ts'

/**
 * Texts near every rule's edges: empty, blank, cased and padded addresses, lengths 11/12/128/129
 * (in code points, as zod counts them: also in characters outside the BMP).
 */
const text = fc.oneof(
  fc.constantFrom('', ' ', 'a@b.co', ' Ada@Example.COM ', 'a@b', '.a@b.co', 'a..b@c.de', '123456', ' 12345 '),
  fc.string({ maxLength: 16 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.stringMatching(/^ ?[A-Za-z0-9_'+.-]{0,6}@[A-Za-z0-9.-]{0,8} ?$/),
  fc.constantFrom(11, 12, 128, 129, 250, 255).map((length) => 'p'.repeat(length)),
  fc.constantFrom(6, 11, 12, 64, 128, 129).map((length) => '𐀀'.repeat(length)),
  fc.constantFrom(245, 250).map((length) => `${'a'.repeat(length)}@b.co`),
)
/** Two fields that must match (or differ) are often the same. */
const pair = fc.oneof(
  text.map((value) => [value, value] as const),
  fc.tuple(text, text),
)

/** What the schema answers, in the shape of a check's answer. */
function parsed<T>(schema: z.ZodType, input: T): Checked<T> {
  const result = schema.safeParse(input)
  return result.success
    ? { ok: true, value: result.data as T }
    : ({ ok: false, errors: fieldErrorsOf(result.error) } as Checked<T>)
}

describe('the sign-in forms check as their schemas parse', () => {
  it('sign-in', () => {
    fc.assert(
      fc.property(text, text, (email, password) => {
        expect(checkSignIn({ email, password })).toEqual(parsed(signInInput, { email, password }))
      }),
    )
  })

  it('sign-up', () => {
    fc.assert(
      fc.property(text, pair, fc.boolean(), (email, [password, confirmPassword], acceptTerms) => {
        const input = { email, password, confirmPassword, acceptTerms }
        expect(checkSignUp(input)).toEqual(parsed(signUpInput, input))
      }),
    )
  })

  it('the emailed code: the address, then the code', () => {
    fc.assert(
      fc.property(text, text, (email, code) => {
        expect(checkSendCode({ email })).toEqual(parsed(sendCodeInput, { email }))
        expect(checkVerifyCode({ email, code })).toEqual(parsed(verifyCodeInput, { email, code }))
      }),
    )
  })

  it('a new password and its confirmation', () => {
    fc.assert(
      fc.property(pair, ([password, confirmPassword]) => {
        const input = { password, confirmPassword }
        expect(checkNewPassword(input)).toEqual(parsed(newPasswordInput, input))
      }),
    )
  })

  it('the direct reset', () => {
    fc.assert(
      fc.property(text, pair, pair, (email, [currentPassword, newPassword], [, confirmPassword]) => {
        const input = { email, currentPassword, newPassword, confirmPassword }
        expect(checkDirectReset(input)).toEqual(parsed(directResetInput, input))
        const confirmed = { ...input, confirmPassword: newPassword }
        expect(checkDirectReset(confirmed)).toEqual(parsed(directResetInput, confirmed))
      }),
    )
  })

  it("an admin's reset", () => {
    fc.assert(
      fc.property(text, text, (email, newPassword) => {
        const input = { email, newPassword }
        expect(checkAdminSetPassword(input)).toEqual(parsed(adminSetPasswordInput, input))
      }),
    )
  })
})
