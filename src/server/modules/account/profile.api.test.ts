import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../../domain/api/account.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

describe('profile settings', () => {
  it('starts with the spec defaults (locale of sign-up, theme system, all notifications on)', async () => {
    const client = new TestClient(testApp)
    const user = await client.signUp()
    const res = await client.call(accountOperations.profile, {})
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
    expect((await german.call(accountOperations.profile, {})).body.locale).toBe('de')
  })

  it("is the signed-in user's name (the dashboard's welcome and the avatar menu show it)", async () => {
    const client = await TestClient.signedUp(testApp)
    expect((await client.call(accountOperations.session, {})).body.user?.name).toBe('')
    await client.call(accountOperations.updateProfile, { body: { displayName: ' Ada Lovelace ' } })
    expect((await client.call(accountOperations.session, {})).body.user?.name).toBe('Ada Lovelace')
    expect((await client.call(accountOperations.me, {})).body.name).toBe('Ada Lovelace')
    await client.call(accountOperations.updateProfile, { body: { theme: 'dark' } })
    expect((await client.call(accountOperations.session, {})).body.user?.name).toBe('Ada Lovelace')
    await client.call(accountOperations.updateProfile, { body: { displayName: '' } })
    expect((await client.call(accountOperations.session, {})).body.user?.name).toBe('')
  })

  it('changes only the fields sent, trims the display name, and keeps the email read-only', async () => {
    const client = new TestClient(testApp)
    const user = await client.signUp()
    const res = await client.call(accountOperations.updateProfile, {
      body: { displayName: '  Ada Lovelace ', theme: 'dark' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ displayName: 'Ada Lovelace', theme: 'dark', timezone: 'UTC' })
    const more = await client.call(accountOperations.updateProfile, {
      body: {
        timezone: 'Asia/Tokyo',
        notifications: { mentions: { in_app: false, email: true }, invites: { in_app: true, email: false } },
      },
    })
    expect(more.body).toMatchObject({
      displayName: 'Ada Lovelace',
      theme: 'dark',
      timezone: 'Asia/Tokyo',
      notifications: { mentions: { in_app: false, email: true }, invites: { in_app: true, email: false } },
    })
    const email = await client.callUnchecked(accountOperations.updateProfile, {
      body: { email: 'other@example.com' },
    })
    expect(email.status).toBe(400)
    expect((await client.call(accountOperations.profile, {})).body.email).toBe(user.email)
    const cleared = await client.call(accountOperations.updateProfile, { body: { displayName: '   ' } })
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
    const client = await TestClient.signedUp(testApp)
    const before = (await client.call(accountOperations.profile, {})).body
    const res = await client.callUnchecked(accountOperations.updateProfile, { body })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.[field]).toBe(en)
    const german = new TestClient(testApp, { locale: 'de' })
    await german.signUp()
    expect(
      errorOf(await german.callUnchecked(accountOperations.updateProfile, { body })).fields?.[field],
    ).toBe(de)
    expect((await client.call(accountOperations.profile, {})).body).toEqual(before)
  })

  it('accepts exactly 80 characters', async () => {
    const client = await TestClient.signedUp(testApp)
    const res = await client.call(accountOperations.updateProfile, { body: { displayName: 'é'.repeat(80) } })
    expect(res.status).toBe(200)
  })

  it('needs a signed-in user', async () => {
    const client = new TestClient(testApp)
    expect((await client.call(accountOperations.profile, {})).status).toBe(401)
    expect((await client.call(accountOperations.updateProfile, { body: { theme: 'dark' } })).status).toBe(401)
  })
})
