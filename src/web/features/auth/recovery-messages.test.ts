import { describe, expect, it } from 'vitest'
import { isAuthSuccessMessage, safeNextPath } from './recovery-messages.ts'

describe('safeNextPath', () => {
  it('keeps same-origin paths and refuses everything else', () => {
    expect(safeNextPath('/reset-password')).toBe('/reset-password')
    expect(safeNextPath(null)).toBe('/prompts')
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)']) {
      expect(safeNextPath(bad), bad).toBe('/prompts')
    }
  })
})

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
