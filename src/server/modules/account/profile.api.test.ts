import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ErrorBody } from '../../../domain/errors.ts'
import type { Profile } from '../../../domain/profile.ts'
import { TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

type ProfileBody = Profile

describe('profile settings', () => {
  it('starts with the spec defaults (locale of sign-up, theme system, all notifications on)', async () => {
    const client = new TestClient(testApp)
    const user = await client.signUp()
    const res = await client.get<ProfileBody>('/api/v1/profile')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      email: user.email,
      displayName: null,
      locale: 'en',
      timezone: 'UTC',
      theme: 'system',
      notifications: { mentions: { in_app: true, email: true }, invites: { in_app: true, email: true } },
    })
    const german = new TestClient(testApp, { locale: 'de-DE,de;q=0.9' })
    await german.signUp()
    expect((await german.get<ProfileBody>('/api/v1/profile')).body.locale).toBe('de')
  })

  it("is the signed-in user's name (the dashboard's welcome and the avatar menu show it)", async () => {
    const client = new TestClient(testApp)
    await client.signUp()
    type SessionBody = { user: { name: string } }
    expect((await client.get<SessionBody>('/api/v1/session')).body.user.name).toBe('')
    await client.patch('/api/v1/profile', { displayName: ' Ada Lovelace ' })
    expect((await client.get<SessionBody>('/api/v1/session')).body.user.name).toBe('Ada Lovelace')
    expect((await client.get<{ name: string }>('/api/v1/me')).body.name).toBe('Ada Lovelace')
    await client.patch('/api/v1/profile', { theme: 'dark' })
    expect((await client.get<SessionBody>('/api/v1/session')).body.user.name).toBe('Ada Lovelace')
    await client.patch('/api/v1/profile', { displayName: '' })
    expect((await client.get<SessionBody>('/api/v1/session')).body.user.name).toBe('')
  })

  it('changes only the fields sent, trims the display name, and keeps the email read-only', async () => {
    const client = new TestClient(testApp)
    const user = await client.signUp()
    const res = await client.patch<ProfileBody>('/api/v1/profile', {
      displayName: '  Ada Lovelace ',
      theme: 'dark',
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ displayName: 'Ada Lovelace', theme: 'dark', timezone: 'UTC' })
    const more = await client.patch<ProfileBody>('/api/v1/profile', {
      timezone: 'Asia/Tokyo',
      notifications: { mentions: { in_app: false, email: true }, invites: { in_app: true, email: false } },
    })
    expect(more.body).toMatchObject({
      displayName: 'Ada Lovelace',
      theme: 'dark',
      timezone: 'Asia/Tokyo',
      notifications: { mentions: { in_app: false, email: true }, invites: { in_app: true, email: false } },
    })
    const email = await client.patch<ErrorBody>('/api/v1/profile', { email: 'other@example.com' })
    expect(email.status).toBe(400)
    expect((await client.get<ProfileBody>('/api/v1/profile')).body.email).toBe(user.email)
    const cleared = await client.patch<ProfileBody>('/api/v1/profile', { displayName: '   ' })
    expect(cleared.body.displayName).toBeNull()
  })

  it.each([
    [
      { displayName: 'x'.repeat(81) },
      'displayName',
      'Display name must be ≤ 80 characters',
      'Anzeigename darf höchstens 80 Zeichen haben',
    ],
    [{ locale: 'fr' }, 'locale', 'Choose English or German', 'Wähle Englisch oder Deutsch'],
    [
      { timezone: 'Mars/Olympus' },
      'timezone',
      'Choose a timezone from the list',
      'Wähle eine Zeitzone aus der Liste',
    ],
    [{ theme: 'neon' }, 'theme', 'Choose system, light or dark', 'Wähle System, Hell oder Dunkel'],
    [
      { notifications: { mentions: { in_app: true } } },
      'notifications.mentions.email',
      'Invalid value',
      'Ungültiger Wert',
    ],
  ])('refuses %j and changes nothing', async (body, field, en, de) => {
    const client = new TestClient(testApp)
    await client.signUp()
    const before = (await client.get<ProfileBody>('/api/v1/profile')).body
    const res = await client.patch<ErrorBody>('/api/v1/profile', body)
    expect(res.status).toBe(400)
    expect(res.body.error.fields?.[field]).toBe(en)
    const german = new TestClient(testApp, { locale: 'de' })
    await german.signUp()
    expect((await german.patch<ErrorBody>('/api/v1/profile', body)).body.error.fields?.[field]).toBe(de)
    expect((await client.get<ProfileBody>('/api/v1/profile')).body).toEqual(before)
  })

  it('accepts exactly 80 characters', async () => {
    const client = new TestClient(testApp)
    await client.signUp()
    const res = await client.patch<ProfileBody>('/api/v1/profile', { displayName: 'é'.repeat(80) })
    expect(res.status).toBe(200)
  })

  it('needs a signed-in user', async () => {
    const client = new TestClient(testApp)
    expect((await client.get('/api/v1/profile')).status).toBe(401)
    expect((await client.patch('/api/v1/profile', { theme: 'dark' })).status).toBe(401)
  })
})
