import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CurrentUser } from '../../../domain/auth.ts'
import type { Page } from '../../../domain/cursor.ts'
import type { ErrorBody } from '../../../domain/errors.ts'
import type { LabelEvent } from '../../../domain/prompt-names.ts'
import type { PromptDetail, VersionSummary } from '../../../domain/prompts.ts'
import { TestClient } from '../../testing/client.ts'
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
  const res = await client.patch<PromptDetail>(`/api/v1/prompts/${prompt.id}`, { body })
  expect(res.status).toBe(200)
  return res.body
}

async function versionsOf(client: TestClient, promptId: string) {
  const res = await client.get<Page<VersionSummary>>(`/api/v1/prompts/${promptId}/versions`)
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
    const retitled = await owner.patch<PromptDetail>(`/api/v1/prompts/${second.id}`, {
      title: 'Meeting summary',
    })
    expect(retitled.body.name).toBe('support-triage-2')
    expect((await createPromptAs(owner, { title: 'Meeting summary' })).name).toBe('meeting-summary')

    const renamed = await owner.patch<PromptDetail>(`/api/v1/prompts/${first.id}`, { name: 'support/triage' })
    expect(renamed.status).toBe(200)
    expect(renamed.body.name).toBe('support/triage')
  })

  it('refuses a taken or invalid name with a field message', async () => {
    await createPromptAs(owner, { title: 'x', name: 'taken' })
    const taken = await owner.post<ErrorBody>('/api/v1/prompts', { title: 'y', body: 'b', name: 'taken' })
    expect(taken.status).toBe(409)
    expect(taken.body.error.fields).toEqual({ name: 'A prompt with this name already exists in this space' })
    for (const [name, message] of [
      ['a|b', 'Name may not contain "|" or HTML, and folders (a/b) may not be empty'],
      ['new', 'This name is reserved; choose another'],
      ['x'.repeat(256), 'Name must be at most 255 characters'],
    ] as const) {
      const res = await owner.post<ErrorBody>('/api/v1/prompts', { title: 'y', body: 'b', name })
      expect(res.status).toBe(400)
      expect(res.body.error.fields?.name).toBe(message)
    }
  })

  it('are unique per team space: moving a prompt into a team where its name is taken is a conflict', async () => {
    await createPromptAs(member, { title: 't', name: 'shared', visibility: 'team', teamId })
    const mine = await createPromptAs(owner, { title: 't', name: 'shared' })
    const res = await owner.patch<ErrorBody>(`/api/v1/prompts/${mine.id}`, { visibility: 'team', teamId })
    expect(res.status).toBe(409)
    expect(res.body.error.fields?.name).toBeDefined()
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

    const back = await owner.put<PromptDetail>(`/api/v1/prompts/${prompt.id}/current-version`, {
      versionId: versions[1]!.id,
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
      owner.put<PromptDetail>(`/api/v1/prompts/${prompt.id}/labels`, { label: 'staging', versionId })
    expect((await put(versions[1]!.id)).status).toBe(200)
    expect((await put(versions[2]!.id)).status).toBe(200)
    const after = await versionsOf(owner, prompt.id)
    expect(after[1]?.labels).toEqual([])
    expect(after[2]?.labels).toEqual(['production', 'latest', 'staging'])

    expect((await owner.delete(`/api/v1/prompts/${prompt.id}/labels/staging`)).status).toBe(204)
    expect((await versionsOf(owner, prompt.id))[2]?.labels).toEqual(['production', 'latest'])
  })

  it('refuses latest and malformed labels, and other people', async () => {
    const prompt = await createPromptAs(owner)
    const versionId = prompt.currentVersionId!
    const latest = await owner.put<ErrorBody>(`/api/v1/prompts/${prompt.id}/labels`, {
      label: 'latest',
      versionId,
    })
    expect(latest.status).toBe(400)
    expect(latest.body.error.fields?.label).toBe(
      'The label "latest" is set automatically and cannot be moved',
    )
    const bad = await owner.put<ErrorBody>(`/api/v1/prompts/${prompt.id}/labels`, {
      label: 'Prod!',
      versionId,
    })
    expect(bad.status).toBe(400)
    const strangers = await stranger.put<ErrorBody>(`/api/v1/prompts/${prompt.id}/labels`, {
      label: 'staging',
      versionId,
    })
    expect(strangers.status).toBe(404)
  })

  it('keeps a history of who moved what, and reverts a move in one click', async () => {
    const prompt = await createPromptAs(owner)
    await saveVersion(owner, prompt, 'second')
    const history = await owner.get<Page<LabelEvent>>(`/api/v1/prompts/${prompt.id}/label-history`)
    expect(history.status).toBe(200)
    expect(history.body.items.map((e) => [e.label, e.fromVersion, e.toVersion, e.actorEmail])).toEqual([
      ['production', 1, 2, ownerUser.email],
      ['production', null, 1, ownerUser.email],
    ])
    const reverted = await owner.post<PromptDetail>(
      `/api/v1/prompts/${prompt.id}/label-history/${history.body.items[0]!.id}/revert`,
    )
    expect(reverted.status).toBe(200)
    expect(reverted.body.currentVersion?.versionNumber).toBe(1)
    const after = await owner.get<Page<LabelEvent>>(`/api/v1/prompts/${prompt.id}/label-history`)
    expect(after.body.items[0]).toMatchObject({ label: 'production', fromVersion: 2, toVersion: 1 })
  })

  it('protected labels of a team move only by its admins; a non-admin save leaves production where it is', async () => {
    const forbidden = await member.put<ErrorBody>(`/api/v1/teams/${teamId}/protected-labels`, {
      labels: ['production'],
    })
    expect(forbidden.status).toBe(403)
    const set = await admin.put<Page<string>>(`/api/v1/teams/${teamId}/protected-labels`, {
      labels: ['production', 'staging', 'production'],
    })
    expect(set.status).toBe(200)
    expect(set.body.items).toEqual(['production', 'staging'])
    expect((await member.get<Page<string>>(`/api/v1/teams/${teamId}/protected-labels`)).body.items).toEqual([
      'production',
      'staging',
    ])

    const prompt = await createPromptAs(owner, { visibility: 'team', teamId })
    const saved = await saveVersion(owner, prompt, 'second')
    expect(saved.currentVersion?.versionNumber).toBe(1)
    const versions = await versionsOf(owner, prompt.id)
    const refused = await owner.put<ErrorBody>(`/api/v1/prompts/${prompt.id}/current-version`, {
      versionId: versions[2]!.id,
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toBe('Only team admins may move the protected label "production"')
    const staging = await owner.put<ErrorBody>(`/api/v1/prompts/${prompt.id}/labels`, {
      label: 'staging',
      versionId: versions[2]!.id,
    })
    expect(staging.status).toBe(403)
    const unprotected = await owner.put<PromptDetail>(`/api/v1/prompts/${prompt.id}/labels`, {
      label: 'beta',
      versionId: versions[2]!.id,
    })
    expect(unprotected.status).toBe(200)
    await admin.put(`/api/v1/teams/${teamId}/protected-labels`, { labels: [] })
  })
})
