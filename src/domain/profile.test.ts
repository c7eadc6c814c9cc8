import { describe, expect, it } from 'vitest'
import { changedProfileFields, defaultProfileSettings, profileUpdateInput } from './profile.ts'

const base = {
  ...defaultProfileSettings,
  notifications: { mentions: { in_app: true, email: true }, invites: { in_app: true, email: true } },
}

describe('changedProfileFields', () => {
  it('is empty when nothing changed (Save stays disabled)', () => {
    expect(changedProfileFields(base, { ...base, displayName: '   ' })).toEqual({})
  })

  it('lists only the fields that differ', () => {
    expect(
      changedProfileFields(base, {
        ...base,
        displayName: ' Ada ',
        theme: 'dark',
        notifications: { ...base.notifications, invites: { in_app: true, email: false } },
      }),
    ).toEqual({
      displayName: 'Ada',
      theme: 'dark',
      notifications: { mentions: { in_app: true, email: true }, invites: { in_app: true, email: false } },
    })
  })

  it('clears a display name with an empty string', () => {
    expect(changedProfileFields({ ...base, displayName: 'Ada' }, { ...base, displayName: null })).toEqual({
      displayName: '',
    })
  })
})

describe('profileUpdateInput', () => {
  it('trims the display name and turns an empty one into null', () => {
    expect(profileUpdateInput.parse({ displayName: '  Ada  ' })).toEqual({ displayName: 'Ada' })
    expect(profileUpdateInput.parse({ displayName: '  ' })).toEqual({ displayName: null })
  })

  it('refuses unknown fields such as the email', () => {
    expect(profileUpdateInput.safeParse({ email: 'x@y.z' }).success).toBe(false)
  })

  it('allows 80 characters, not 81', () => {
    expect(profileUpdateInput.safeParse({ displayName: 'a'.repeat(80) }).success).toBe(true)
    const result = profileUpdateInput.safeParse({ displayName: 'a'.repeat(81) })
    expect(result.error?.issues[0]?.message).toBe('profile.displayNameMax')
  })
})
