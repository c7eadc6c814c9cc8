import { describe, expect, it } from 'vitest'
import { signInMethod } from './audit-events.ts'

describe('signInMethod', () => {
  it("names the way in from better-auth's endpoint", () => {
    expect(signInMethod('/sign-in/email')).toBe('password')
    expect(signInMethod('/sign-in/email-otp')).toBe('code')
    expect(signInMethod('/sign-up/email')).toBe('sign_up')
    expect(signInMethod('/callback/:id', { id: 'google' })).toBe('provider:google')
    expect(signInMethod('/oauth2/callback/:providerId', { providerId: 'google' })).toBe('provider:google')
    expect(signInMethod(undefined)).toBe('unknown')
  })
})
