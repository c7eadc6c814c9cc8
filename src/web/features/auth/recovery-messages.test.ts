import { describe, expect, it } from 'vitest'
import { isAuthSuccessMessage } from './recovery-messages.ts'

describe('isAuthSuccessMessage', () => {
  it('recognises only the reset-verified message', () => {
    expect(
      isAuthSuccessMessage({
        type: 'SUPABASE_AUTH_SUCCESS',
        action: 'password_reset_verified',
        nextUrl: '/x',
      }),
    ).toBe(true)
    expect(isAuthSuccessMessage({ type: 'SUPABASE_AUTH_SUCCESS', action: 'other' })).toBe(false)
    expect(isAuthSuccessMessage('SUPABASE_AUTH_SUCCESS')).toBe(false)
  })
})
