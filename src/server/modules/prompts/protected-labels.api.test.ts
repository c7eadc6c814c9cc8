import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedApiKey } from '../../../domain/api-keys.ts'
import type { CurrentUser } from '../../../domain/auth.ts'
import type { Page } from '../../../domain/cursor.ts'
import type { ErrorBody } from '../../../domain/errors.ts'
import type { LabelEvent } from '../../../domain/prompt-names.ts'
import { PROMPTS_FORMAT } from '../../../domain/prompt-transfer.ts'
import type { PromptDetail, PromptSummary, VersionSummary } from '../../../domain/prompts.ts'
import { keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

/**
 * Protected labels at every door: a request made with an API key moves labels as that key (never a
 * protected one, recorded with the key's name), whichever door it comes through; deleting a prompt
 * or version that holds a protected label is a team admin's action.
 */
let testApp: TestApp
let admin: TestClient
let member: TestClient
let adminUser: CurrentUser
let teamId: string
/** The team admin's personal key (Bearer on /api/v1). */
let adminKey: CreatedApiKey
/** A write key of the team (Basic on the Langfuse routes). */
let teamKey: CreatedApiKey

const keyName = 'Admin laptop'
const protectedByKey = (label: string) =>
  `API keys never move the protected label "${label}"; a team admin moves it in the app`

beforeAll(async () => {
  testApp = await createTestApp()
  await new TestClient(testApp).signUp() // the installation's first account, a global admin
  admin = new TestClient(testApp)
  member = new TestClient(testApp)
  adminUser = await admin.signUp()
  const memberUser = await member.signUp()
  teamId = await insertTeam(testApp.database.db, 'Guarded', [
    { userId: adminUser.id, role: 'admin' },
    { userId: memberUser.id },
  ])
  expect(
    (await admin.put(`/api/v1/teams/${teamId}/protected-labels`, { labels: ['production', 'gold'] })).status,
  ).toBe(200)
  adminKey = (await admin.post<CreatedApiKey>('/api/v1/api-keys', { name: keyName, scope: 'read_write' }))
    .body
  teamKey = (
    await admin.post<CreatedApiKey>('/api/v1/api-keys', { name: 'Team deploy', scope: 'read_write', teamId })
  ).body
})
afterAll(() => testApp.close())

/** A request to /api/v1 as code sends it: the key as Bearer, no session. */
function withKey<T>(method: string, path: string, body?: unknown) {
  return new TestClient(testApp).request<T>(method, path, {
    body,
    headers: { Authorization: `Bearer ${adminKey.secretKey}` },
  })
}

/** A request to the Langfuse routes with a key pair. */
function langfuse<T>(key: CreatedApiKey, method: string, path: string, body?: unknown) {
  return new TestClient(testApp).request<T>(method, `/api/public${path}`, {
    body,
    headers: {
      Authorization: keyPairAuthorization(key),
    },
  })
}

async function versionIds(client: TestClient, promptId: string): Promise<Record<number, string>> {
  const res = await client.get<Page<VersionSummary>>(`/api/v1/prompts/${promptId}/versions`)
  return Object.fromEntries(res.body.items.map((version) => [version.versionNumber, version.id]))
}

async function historyOf(client: TestClient, promptId: string) {
  return (await client.get<Page<LabelEvent>>(`/api/v1/prompts/${promptId}/label-history`)).body.items
}

async function detailOf(client: TestClient, promptId: string) {
  return (await client.get<PromptDetail>(`/api/v1/prompts/${promptId}`)).body
}

describe('a move made with a key is the key’s move at every door', () => {
  // A personal key reaches the personal space only (decision 0242), so on /api/v1 a team admin's
  // personal key moves no label of a team prompt at all: every door answers as for a stranger. The
  // rule that keys never move protected labels is kept in `mayMove` as well (the key-mover rows of
  // the authorization matrix), and the team key's doors are tested on the Langfuse routes.
  it('a team admin’s personal key reaches no team prompt on /api/v1: set, set current, remove, revert', async () => {
    const prompt = await createPromptAs(admin, { title: 'Guarded', visibility: 'team', teamId })
    await admin.patch(`/api/v1/prompts/${prompt.id}`, { body: 'second' })
    const versions = await versionIds(admin, prompt.id)
    const before = await historyOf(admin, prompt.id)
    const production = before.find((event) => event.label === 'production' && event.toVersion === 2)!

    const attempts = [
      withKey<ErrorBody>('PUT', `/api/v1/prompts/${prompt.id}/labels`, {
        label: 'production',
        versionId: versions[1],
      }),
      withKey<ErrorBody>('PUT', `/api/v1/prompts/${prompt.id}/current-version`, { versionId: versions[1] }),
      withKey<ErrorBody>('DELETE', `/api/v1/prompts/${prompt.id}/labels/production`),
      withKey<ErrorBody>('POST', `/api/v1/prompts/${prompt.id}/label-history/${production.id}/revert`),
      withKey<ErrorBody>('PUT', `/api/v1/prompts/${prompt.id}/labels`, {
        label: 'gold',
        versionId: versions[1],
      }),
      withKey<ErrorBody>('PATCH', `/api/v1/prompts/${prompt.id}`, { body: 'third' }),
    ]
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404)

    expect((await detailOf(admin, prompt.id)).currentVersion?.versionNumber).toBe(2)
    expect(await historyOf(admin, prompt.id)).toEqual(before)
    // The same admin, signed in, moves it.
    const moved = await admin.put<PromptDetail>(`/api/v1/prompts/${prompt.id}/current-version`, {
      versionId: versions[1],
    })
    expect(moved.status).toBe(200)
  })

  it('records every move a key makes on /api/v1 with the key’s name', async () => {
    const created = await withKey<PromptDetail>('POST', '/api/v1/prompts', {
      title: 'Keyed moves',
      name: 'keyed-moves',
      body: 'one',
    })
    expect(created.status).toBe(201)
    const id = created.body.id
    expect((await withKey('PATCH', `/api/v1/prompts/${id}`, { body: 'two' })).status).toBe(200)
    const versions = await versionIds(admin, id)
    const steps = [
      () => withKey('PUT', `/api/v1/prompts/${id}/labels`, { label: 'staging', versionId: versions[1] }),
      () => withKey('PUT', `/api/v1/prompts/${id}/current-version`, { versionId: versions[1] }),
      () => withKey('DELETE', `/api/v1/prompts/${id}/labels/staging`),
    ]
    for (const step of steps) expect((await step()).status).toBeLessThan(300)
    const [latest] = await historyOf(admin, id)
    expect((await withKey('POST', `/api/v1/prompts/${id}/label-history/${latest!.id}/revert`)).status).toBe(
      200,
    )
    const imported = await withKey('POST', '/api/v1/prompts/import', {
      document: {
        format: PROMPTS_FORMAT,
        prompts: [
          {
            name: 'keyed-moves',
            title: 'Keyed moves',
            versions: [{ body: 'three', labels: ['production'] }],
          },
        ],
      },
    })
    expect(imported.status).toBe(200)

    const history = await historyOf(admin, id)
    expect(history.map((event) => [event.label, event.fromVersion, event.toVersion])).toEqual([
      ['production', 1, 3], // import
      ['staging', null, 1], // revert of the removal
      ['staging', 1, null], // remove
      ['production', 2, 1], // set current
      ['staging', null, 1], // set
      ['production', 1, 2], // save
      ['production', null, 1], // create
    ])
    for (const event of history) {
      expect(event).toMatchObject({
        apiKeyName: keyName,
        actorUserId: adminUser.id,
        actorEmail: adminUser.email,
      })
    }
  })

  it('refuses a team key the protected labels at the Langfuse door and records its other moves', async () => {
    const created = await langfuse(teamKey, 'POST', '/v2/prompts', {
      name: 'lf-guarded',
      prompt: 'x',
      labels: [],
    })
    expect(created.status).toBe(201)
    for (const [method, path, body] of [
      ['POST', '/v2/prompts', { name: 'lf-guarded', prompt: 'y', labels: ['production'] }],
      ['PATCH', '/v2/prompts/lf-guarded/versions/1', { newLabels: ['gold'] }],
    ] as const) {
      const res = await langfuse<{ message: string }>(teamKey, method, path, body)
      expect([res.status, res.body.message]).toEqual([
        403,
        protectedByKey(method === 'POST' ? 'production' : 'gold'),
      ])
    }
    expect(
      (await langfuse(teamKey, 'PATCH', '/v2/prompts/lf-guarded/versions/1', { newLabels: ['beta'] })).status,
    ).toBe(200)
    const list = await admin.get<Page<PromptSummary>>(`/api/v1/prompts?scope=team&teamId=${teamId}&limit=100`)
    const id = list.body.items.find((prompt) => prompt.name === 'lf-guarded')!.id
    expect((await historyOf(admin, id)).map((event) => [event.label, event.apiKeyName])).toEqual([
      ['beta', 'Team deploy'],
    ])
  })
})

describe('deleting a prompt that holds a protected label is a team admin’s action', () => {
  it('refuses the non-admin owner (and hides the delete from them); the team admin deletes, never with a key', async () => {
    const theirs = await createPromptAs(member, { title: 'Member’s', visibility: 'team', teamId })
    expect(theirs.access).toEqual({ edit: true, delete: false, setCurrent: true })
    const listed = await member.get<Page<PromptSummary>>(`/api/v1/prompts?scope=team&teamId=${teamId}`)
    expect(listed.body.items.find((prompt) => prompt.id === theirs.id)?.access.delete).toBe(false)

    const refused = await member.delete<ErrorBody>(`/api/v1/prompts/${theirs.id}`)
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toBe(
      'Only team admins may delete a prompt or version that holds the protected label "production"',
    )
    const german = await member.request<ErrorBody>('DELETE', `/api/v1/prompts/${theirs.id}`, {
      headers: { 'Accept-Language': 'de' },
    })
    expect([german.status, german.body.error.message]).toEqual([
      403,
      'Nur Team-Admins dürfen einen Prompt oder eine Version mit dem geschützten Label „production“ löschen',
    ])
    expect((await member.get(`/api/v1/prompts/${theirs.id}`)).status).toBe(200)

    const mine = await createPromptAs(admin, { title: 'Admin’s', visibility: 'team', teamId })
    expect(mine.access.delete).toBe(true)
    // The personal key does not reach the team (decision 0242); a team key's delete of a protected
    // version is refused on the Langfuse door (langfuse-delete.api.test.ts).
    const byKey = await withKey<ErrorBody>('DELETE', `/api/v1/prompts/${mine.id}`)
    expect(byKey.status).toBe(404)
    expect((await admin.delete(`/api/v1/prompts/${mine.id}`)).status).toBe(204)
  })

  it('counts every protected label the prompt holds, and only while it is protected', async () => {
    const theirs = await createPromptAs(member, { title: 'Gilded', visibility: 'team', teamId })
    await admin.put(`/api/v1/teams/${teamId}/protected-labels`, { labels: ['gold'] })
    expect((await detailOf(member, theirs.id)).access.delete).toBe(true)
    // Put on while nobody protected it, then protected by the team's admin.
    await member.put(`/api/v1/prompts/${theirs.id}/labels`, {
      label: 'silver',
      versionId: theirs.currentVersionId,
    })
    await admin.put(`/api/v1/teams/${teamId}/protected-labels`, { labels: ['gold', 'silver'] })
    expect((await detailOf(member, theirs.id)).access.delete).toBe(false)
    const refused = await member.delete<ErrorBody>(`/api/v1/prompts/${theirs.id}`)
    expect([refused.status, refused.body.error.message]).toEqual([
      403,
      'Only team admins may delete a prompt or version that holds the protected label "silver"',
    ])
    await admin.put(`/api/v1/teams/${teamId}/protected-labels`, { labels: ['gold'] })
    expect((await member.delete(`/api/v1/prompts/${theirs.id}`)).status).toBe(204)
    await admin.put(`/api/v1/teams/${teamId}/protected-labels`, { labels: ['production', 'gold'] })
  })
})
