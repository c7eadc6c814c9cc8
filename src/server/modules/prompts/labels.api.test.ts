import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { CurrentUser } from '../../../domain/auth.ts'
import type { PromptDetail } from '../../../domain/prompts.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

let testApp: TestApp
let owner: TestClient
let admin: TestClient
let member: TestClient
let stranger: TestClient
let ownerUser: CurrentUser
let teamId: string

beforeAll(async () => {
  testApp = await createTestApp()
  await new TestClient(testApp).signUp() // the installation's first account, a global admin
  owner = new TestClient(testApp)
  admin = new TestClient(testApp)
  member = new TestClient(testApp)
  stranger = new TestClient(testApp)
  ownerUser = await owner.signUp()
  const adminUser = await admin.signUp()
  const memberUser = await member.signUp()
  await stranger.signUp()
  teamId = await insertTeam(testApp.database.db, 'Writers', [
    { userId: adminUser.id, role: 'admin' },
    { userId: ownerUser.id },
    { userId: memberUser.id },
  ])
})
afterAll(() => testApp.close())

async function saveVersion(client: TestClient, prompt: PromptDetail, body: string) {
  const res = await client.call(promptOperations.update, { params: { id: prompt.id }, body: { body } })
  expect(res.status).toBe(200)
  return res.body
}

async function versionsOf(client: TestClient, promptId: string) {
  const res = await client.call(promptOperations.versions, { params: { id: promptId } })
  return Object.fromEntries(res.body.items.map((v) => [v.versionNumber, v]))
}

describe('prompt names', () => {
  it('are made from the title as lowercase slugs, unique in the space with -2, -3..., and editable', async () => {
    const first = await createPromptAs(owner, { title: 'Support | triage' })
    const second = await createPromptAs(owner, { title: 'Support | triage' })
    expect(first.name).toBe('support-triage')
    expect(second.name).toBe('support-triage-2')
    expect(first.type).toBe('text')
    // Another space may use the same name.
    const theirs = await createPromptAs(stranger, { title: 'Support | triage' })
    expect(theirs.name).toBe('support-triage')
    // A new title leaves the name alone: code that fetches it keeps working until someone renames it.
    const retitled = await owner.call(promptOperations.update, {
      params: { id: second.id },
      body: { title: 'Meeting summary' },
    })
    expect(retitled.body.name).toBe('support-triage-2')
    expect((await createPromptAs(owner, { title: 'Meeting summary' })).name).toBe('meeting-summary')

    const renamed = await owner.call(promptOperations.update, {
      params: { id: first.id },
      body: { name: 'support/triage' },
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body.name).toBe('support/triage')
  })

  it('refuses a taken or invalid name with a field message', async () => {
    await createPromptAs(owner, { title: 'x', name: 'taken' })
    const taken = await owner.call(promptOperations.create, {
      body: { title: 'y', body: 'b', name: 'taken' },
    })
    expect(taken.status).toBe(409)
    expect(errorOf(taken).fields).toEqual({ name: 'A prompt with this name already exists in this space' })
    for (const [name, message] of [
      ['a|b', 'Name may not contain "|" or HTML, and folders (a/b) may not be empty'],
      ['new', 'This name is reserved; choose another'],
      ['x'.repeat(256), 'Name must be at most 255 characters'],
    ] as const) {
      const res = await owner.call(promptOperations.create, { body: { title: 'y', body: 'b', name } })
      expect(res.status).toBe(400)
      expect(errorOf(res).fields?.name).toBe(message)
    }
  })

  it('are unique per team space: moving a prompt into a team where its name is taken is a conflict', async () => {
    await createPromptAs(member, { title: 't', name: 'shared', visibility: 'team', teamId })
    const mine = await createPromptAs(owner, { title: 't', name: 'shared' })
    const res = await owner.call(promptOperations.update, {
      params: { id: mine.id },
      body: { visibility: 'team', teamId },
    })
    expect(res.status).toBe(409)
    expect(errorOf(res).fields?.name).toBeDefined()
  })
})

describe('labels', () => {
  it('show production on the current version and latest on the highest; Set as Current moves production', async () => {
    const prompt = await createPromptAs(owner)
    expect(prompt.currentVersion?.labels).toEqual(['production', 'latest'])
    const v2 = await saveVersion(owner, prompt, 'second')
    expect(v2.currentVersion?.versionNumber).toBe(2)
    let versions = await versionsOf(owner, prompt.id)
    expect(versions[1]?.labels).toEqual([])
    expect(versions[2]?.labels).toEqual(['production', 'latest'])

    const back = await owner.call(promptOperations.setCurrentVersion, {
      params: { id: prompt.id },
      body: { versionId: versions[1]!.id },
    })
    expect(back.status).toBe(200)
    versions = await versionsOf(owner, prompt.id)
    expect(versions[1]?.labels).toEqual(['production'])
    expect(versions[2]?.labels).toEqual(['latest'])
  })

  it('a label sits on one version: putting it on another moves it; it can be taken off', async () => {
    const prompt = await createPromptAs(owner)
    await saveVersion(owner, prompt, 'second')
    const versions = await versionsOf(owner, prompt.id)
    const put = (versionId: string) =>
      owner.call(promptLabelOperations.set, {
        params: { id: prompt.id },
        body: { label: 'staging', versionId },
      })
    expect((await put(versions[1]!.id)).status).toBe(200)
    expect((await put(versions[2]!.id)).status).toBe(200)
    const after = await versionsOf(owner, prompt.id)
    expect(after[1]?.labels).toEqual([])
    expect(after[2]?.labels).toEqual(['production', 'latest', 'staging'])

    expect(
      (await owner.call(promptLabelOperations.remove, { params: { id: prompt.id, label: 'staging' } }))
        .status,
    ).toBe(204)
    expect((await versionsOf(owner, prompt.id))[2]?.labels).toEqual(['production', 'latest'])
  })

  it('refuses latest and malformed labels, and other people', async () => {
    const prompt = await createPromptAs(owner)
    const params = { id: prompt.id }
    const versionId = prompt.currentVersionId!
    const latest = await owner.call(promptLabelOperations.set, {
      params,
      body: { label: 'latest', versionId },
    })
    expect(latest.status).toBe(400)
    expect(errorOf(latest).fields?.label).toBe('The label "latest" is set automatically and cannot be moved')
    const bad = await owner.call(promptLabelOperations.set, { params, body: { label: 'Prod!', versionId } })
    expect(bad.status).toBe(400)
    const strangers = await stranger.call(promptLabelOperations.set, {
      params,
      body: { label: 'staging', versionId },
    })
    expect(strangers.status).toBe(404)
  })

  it('keeps a history of who moved what, and reverts a move in one click', async () => {
    const prompt = await createPromptAs(owner)
    const params = { id: prompt.id }
    await saveVersion(owner, prompt, 'second')
    const history = await owner.call(promptLabelOperations.history, { params })
    expect(history.status).toBe(200)
    expect(history.body.items.map((e) => [e.label, e.fromVersion, e.toVersion, e.actorEmail])).toEqual([
      ['production', 1, 2, ownerUser.email],
      ['production', null, 1, ownerUser.email],
    ])
    const reverted = await owner.call(promptLabelOperations.revert, {
      params: { id: prompt.id, eventId: history.body.items[0]!.id },
    })
    expect(reverted.status).toBe(200)
    expect(reverted.body.currentVersion?.versionNumber).toBe(1)
    const after = await owner.call(promptLabelOperations.history, { params })
    expect(after.body.items[0]).toMatchObject({ label: 'production', fromVersion: 2, toVersion: 1 })
  })

  it('protected labels of a team move only by its admins; a non-admin save leaves production where it is', async () => {
    const forbidden = await member.call(promptLabelOperations.setProtectedLabels, {
      params: { teamId },
      body: { labels: ['production'] },
    })
    expect(forbidden.status).toBe(403)
    const set = await admin.call(promptLabelOperations.setProtectedLabels, {
      params: { teamId },
      body: { labels: ['production', 'staging', 'production'] },
    })
    expect(set.status).toBe(200)
    expect(set.body.items).toEqual(['production', 'staging'])
    expect(
      (await member.call(promptLabelOperations.protectedLabels, { params: { teamId } })).body.items,
    ).toEqual(['production', 'staging'])

    const prompt = await createPromptAs(owner, { visibility: 'team', teamId })
    const params = { id: prompt.id }
    const saved = await saveVersion(owner, prompt, 'second')
    expect(saved.currentVersion?.versionNumber).toBe(1)
    const versions = await versionsOf(owner, prompt.id)
    const refused = await owner.call(promptOperations.setCurrentVersion, {
      params,
      body: { versionId: versions[2]!.id },
    })
    expect(refused.status).toBe(403)
    expect(errorOf(refused).message).toBe('Only team admins may move the protected label "production"')
    const staging = await owner.call(promptLabelOperations.set, {
      params,
      body: { label: 'staging', versionId: versions[2]!.id },
    })
    expect(staging.status).toBe(403)
    const unprotected = await owner.call(promptLabelOperations.set, {
      params,
      body: { label: 'beta', versionId: versions[2]!.id },
    })
    expect(unprotected.status).toBe(200)
    await admin.call(promptLabelOperations.setProtectedLabels, { params: { teamId }, body: { labels: [] } })
  })
})
