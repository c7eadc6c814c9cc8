import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import type { Operation, OperationInput } from '../../../domain/api/operation.ts'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { CreatedApiKey } from '../../../domain/api-keys.ts'
import type { CurrentUser } from '../../../domain/auth.ts'
import { PROMPTS_FORMAT } from '../../../domain/prompt-transfer.ts'
import { errorOf, keyPairAuthorization, TestClient } from '../../testing/client.ts'
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
    (
      await admin.call(promptLabelOperations.setProtectedLabels, {
        params: { teamId },
        body: { labels: ['production', 'gold'] },
      })
    ).status,
  ).toBe(200)
  adminKey = (await admin.call(apiKeyOperations.create, { body: { name: keyName, scope: 'read_write' } }))
    .body
  teamKey = (
    await admin.call(apiKeyOperations.create, { body: { name: 'Team deploy', scope: 'read_write', teamId } })
  ).body
})
afterAll(() => testApp.close())

/** A request to /api/v1 as code sends it: the key as Bearer, no session. */
function withKey<O extends Operation>(operation: O, input: OperationInput<O>) {
  return new TestClient(testApp).call(operation, input, { Authorization: `Bearer ${adminKey.secretKey}` })
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
  const res = await client.call(promptOperations.versions, { params: { id: promptId } })
  return Object.fromEntries(res.body.items.map((version) => [version.versionNumber, version.id]))
}

async function historyOf(client: TestClient, promptId: string) {
  return (await client.call(promptLabelOperations.history, { params: { id: promptId } })).body.items
}

async function detailOf(client: TestClient, promptId: string) {
  return (await client.call(promptOperations.get, { params: { id: promptId } })).body
}

describe('a move made with a key is the key’s move at every door', () => {
  // A personal key reaches the personal space only (decision 0242), so on /api/v1 a team admin's
  // personal key moves no label of a team prompt at all: every door answers as for a stranger. The
  // rule that keys never move protected labels is kept in `labelMoverFor` as well (the key-mover rows of
  // the authorization matrix), and the team key's doors are tested on the Langfuse routes.
  it('a team admin’s personal key reaches no team prompt on /api/v1: set, set current, remove, revert', async () => {
    const prompt = await createPromptAs(admin, { title: 'Guarded', visibility: 'team', teamId })
    await admin.call(promptOperations.update, { params: { id: prompt.id }, body: { body: 'second' } })
    const versions = await versionIds(admin, prompt.id)
    const before = await historyOf(admin, prompt.id)
    const production = before.find((event) => event.label === 'production' && event.toVersion === 2)!
    const params = { id: prompt.id }

    const attempts = [
      withKey(promptLabelOperations.set, { params, body: { label: 'production', versionId: versions[1]! } }),
      withKey(promptOperations.setCurrentVersion, { params, body: { versionId: versions[1]! } }),
      withKey(promptLabelOperations.remove, { params: { id: prompt.id, label: 'production' } }),
      withKey(promptLabelOperations.revert, { params: { id: prompt.id, eventId: production.id } }),
      withKey(promptLabelOperations.set, { params, body: { label: 'gold', versionId: versions[1]! } }),
      withKey(promptOperations.update, { params, body: { body: 'third' } }),
    ]
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404)

    expect((await detailOf(admin, prompt.id)).currentVersion?.versionNumber).toBe(2)
    expect(await historyOf(admin, prompt.id)).toEqual(before)
    // The same admin, signed in, moves it.
    const moved = await admin.call(promptOperations.setCurrentVersion, {
      params: { id: prompt.id },
      body: { versionId: versions[1]! },
    })
    expect(moved.status).toBe(200)
  })

  it('records every move a key makes on /api/v1 with the key’s name', async () => {
    const created = await withKey(promptOperations.create, {
      body: { title: 'Keyed moves', name: 'keyed-moves', body: 'one' },
    })
    expect(created.status).toBe(201)
    const id = created.body.id
    expect((await withKey(promptOperations.update, { params: { id }, body: { body: 'two' } })).status).toBe(
      200,
    )
    const versions = await versionIds(admin, id)
    const steps = [
      () =>
        withKey(promptLabelOperations.set, {
          params: { id },
          body: { label: 'staging', versionId: versions[1]! },
        }),
      () =>
        withKey(promptOperations.setCurrentVersion, { params: { id }, body: { versionId: versions[1]! } }),
      () => withKey(promptLabelOperations.remove, { params: { id, label: 'staging' } }),
    ]
    for (const step of steps) expect((await step()).status).toBeLessThan(300)
    const [latest] = await historyOf(admin, id)
    expect(
      (await withKey(promptLabelOperations.revert, { params: { id, eventId: latest!.id } })).status,
    ).toBe(200)
    const imported = await withKey(promptOperations.importPrompts, {
      body: {
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
    const list = await admin.call(promptOperations.list, { query: { scope: 'team', teamId, limit: 100 } })
    const id = list.body.items.find((prompt) => prompt.name === 'lf-guarded')!.id
    expect((await historyOf(admin, id)).map((event) => [event.label, event.apiKeyName])).toEqual([
      ['beta', 'Team deploy'],
    ])
  })
})

describe('deleting a prompt that holds a protected label is a team admin’s action', () => {
  it('refuses the non-admin owner (and hides the delete from them); the team admin deletes, never with a key', async () => {
    const theirs = await createPromptAs(member, { title: 'Member’s', visibility: 'team', teamId })
    const params = { id: theirs.id }
    expect(theirs.access).toEqual({ edit: true, delete: false, setCurrent: true })
    const listed = await member.call(promptOperations.list, { query: { scope: 'team', teamId } })
    expect(listed.body.items.find((prompt) => prompt.id === theirs.id)?.access.delete).toBe(false)

    const refused = await member.call(promptOperations.delete, { params })
    expect(refused.status).toBe(403)
    expect(errorOf(refused).message).toBe(
      'Only team admins may delete a prompt or version that holds the protected label "production"',
    )
    const german = await member.call(promptOperations.delete, { params }, { 'Accept-Language': 'de' })
    expect([german.status, errorOf(german).message]).toEqual([
      403,
      'Nur Team-Admins dürfen einen Prompt oder eine Version mit dem geschützten Label „production“ löschen',
    ])
    expect((await member.call(promptOperations.get, { params })).status).toBe(200)

    const mine = await createPromptAs(admin, { title: 'Admin’s', visibility: 'team', teamId })
    expect(mine.access.delete).toBe(true)
    // The personal key does not reach the team (decision 0242); a team key's delete of a protected
    // version is refused on the Langfuse door (langfuse-delete.api.test.ts).
    const byKey = await withKey(promptOperations.delete, { params: { id: mine.id } })
    expect(byKey.status).toBe(404)
    expect((await admin.call(promptOperations.delete, { params: { id: mine.id } })).status).toBe(204)
  })

  it('counts every protected label the prompt holds, and only while it is protected', async () => {
    const theirs = await createPromptAs(member, { title: 'Gilded', visibility: 'team', teamId })
    const params = { id: theirs.id }
    await admin.call(promptLabelOperations.setProtectedLabels, {
      params: { teamId },
      body: { labels: ['gold'] },
    })
    expect((await detailOf(member, theirs.id)).access.delete).toBe(true)
    // Put on while nobody protected it, then protected by the team's admin.
    await member.call(promptLabelOperations.set, {
      params,
      body: { label: 'silver', versionId: theirs.currentVersionId! },
    })
    await admin.call(promptLabelOperations.setProtectedLabels, {
      params: { teamId },
      body: { labels: ['gold', 'silver'] },
    })
    expect((await detailOf(member, theirs.id)).access.delete).toBe(false)
    const refused = await member.call(promptOperations.delete, { params })
    expect([refused.status, errorOf(refused).message]).toEqual([
      403,
      'Only team admins may delete a prompt or version that holds the protected label "silver"',
    ])
    await admin.call(promptLabelOperations.setProtectedLabels, {
      params: { teamId },
      body: { labels: ['gold'] },
    })
    expect((await member.call(promptOperations.delete, { params })).status).toBe(204)
    await admin.call(promptLabelOperations.setProtectedLabels, {
      params: { teamId },
      body: { labels: ['production', 'gold'] },
    })
  })
})
