import { describe, expect, it } from 'vitest'
import { directResetInput, signInInput, signUpInput, verifyCodeInput } from './auth.ts'
import { sanitizeCodeInput } from './auth-checks.ts'
import { fieldErrorsOf } from './validation.ts'

const valid = {
  email: 'a@example.com',
  password: 'x'.repeat(12),
  confirmPassword: 'x'.repeat(12),
  acceptTerms: true,
}

function errors(input: unknown) {
  const result = signUpInput.safeParse(input)
  return result.success ? {} : fieldErrorsOf(result.error)
}

describe('signUpInput', () => {
  it('normalises the email', () => {
    expect(signUpInput.parse({ ...valid, email: '  A@Example.COM ' }).email).toBe('a@example.com')
  })

  it('accepts exactly 12 and 128 characters and refuses 11 and 129', () => {
    for (const length of [12, 128]) {
      const password = 'p'.repeat(length)
      expect(errors({ ...valid, password, confirmPassword: password })).toEqual({})
    }
    expect(errors({ ...valid, password: 'p'.repeat(11), confirmPassword: 'p'.repeat(11) }).password).toBe(
      'validation.passwordMin',
    )
    expect(errors({ ...valid, password: 'p'.repeat(129), confirmPassword: 'p'.repeat(129) }).password).toBe(
      'validation.passwordMax',
    )
  })

  it('reports the first problem of each field as a message key', () => {
    expect(errors({ email: '', password: '', confirmPassword: 'x', acceptTerms: false })).toEqual({
      email: 'validation.emailRequired',
      password: 'validation.passwordRequired',
      confirmPassword: 'validation.passwordsMismatch',
      acceptTerms: 'validation.termsRequired',
    })
  })

  it('maps type errors to a generic message instead of raw zod text', () => {
    expect(errors({ ...valid, email: 42 }).email).toBe('validation.emailRequired')
  })
})

describe('signInInput', () => {
  it('requires both fields', () => {
    const result = signInInput.safeParse({ email: '', password: '' })
    expect(result.success).toBe(false)
    if (!result.success) {
      expect(fieldErrorsOf(result.error)).toEqual({
        email: 'validation.emailRequired',
        password: 'validation.passwordRequired',
      })
    }
  })
})

describe('the emailed code', () => {
  it('keeps only digits, at most 6, while typing', () => {
    expect(sanitizeCodeInput('12a-3 4567')).toBe('123456')
    expect(sanitizeCodeInput('abc')).toBe('')
  })

  it('is trimmed and must be exactly 6 digits', () => {
    expect(verifyCodeInput.parse({ email: ' A@B.co ', code: ' 123456 ' })).toEqual({
      email: 'a@b.co',
      code: '123456',
    })
    for (const code of ['12345', '1234567', '12345a', '']) {
      expect(verifyCodeInput.safeParse({ email: 'a@b.co', code }).success, code).toBe(false)
    }
  })
})

describe('the direct reset', () => {
  it('applies the four password rules', () => {
    const base = {
      email: 'a@b.co',
      currentPassword: 'old password 1',
      newPassword: 'new password 12',
      confirmPassword: 'new password 12',
    }
    expect(directResetInput.safeParse(base).success).toBe(true)
    const message = (patch: object) =>
      directResetInput.safeParse({ ...base, ...patch }).error?.issues[0]?.message
    expect(message({ currentPassword: '' })).toBe('validation.currentPasswordRequired')
    expect(message({ newPassword: 'short', confirmPassword: 'short' })).toBe('validation.newPasswordMin')
    expect(message({ confirmPassword: 'other password' })).toBe('validation.newPasswordsMismatch')
    expect(message({ newPassword: 'old password 1', confirmPassword: 'old password 1' })).toBe(
      'validation.newPasswordSame',
    )
  })
})
