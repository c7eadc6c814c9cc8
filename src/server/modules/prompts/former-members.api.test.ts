import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataRightsOperations } from '../../../domain/api/data-rights.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import type { PromptDetail } from '../../../domain/prompts.ts'
import { prompts } from '../../db/schema/index.ts'
import { DEFAULT_PASSWORD, errorOf, TestClient } from '../../testing/client.ts'
import { addMember, createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

/**
 * A team prompt's owner holds the owner's rights only while a member of its team (decision 0242):
 * a removed member, a removed team admin and a deleted account keep nothing of the team's, and the
 * team's admins manage what they left behind.
 */
let testApp: TestApp
let admin: TestClient
let teamId: string
/** A team prompt of the admin's that a former member must never read again. */
let roadmap: PromptDetail

beforeAll(async () => {
  testApp = await createTestApp()
  await new TestClient(testApp).signUp() // the installation's first account: a global admin
  admin = new TestClient(testApp)
  await admin.signUp()
  teamId = (await createTeamAs(admin, 'Crew')).id
  roadmap = await createPromptAs(admin, {
    title: 'Roadmap',
    name: 'roadmap',
    body: 'Q1: the public plan',
    visibility: 'team',
    teamId,
  })
})
afterAll(() => testApp?.close())

async function memberWithPrompt(role: 'member' | 'admin') {
  const client = new TestClient(testApp)
  const user = await client.signUp()
  await addMember(testApp, admin, teamId, client, role)
  const prompt = await createPromptAs(client, { title: 'Mine in the team', visibility: 'team', teamId })
  return { client, user, prompt }
}

const remove = async (userId: string) =>
  expect((await admin.call(teamOperations.removeMember, { params: { teamId, userId } })).status).toBe(204)

/** Everything a former owner might try on their old team prompt: each answers 404. */
async function expectLockedOut(client: TestClient, prompt: PromptDetail) {
  const params = { id: prompt.id }
  const versionId = prompt.currentVersionId!
  const attempts = [
    await client.call(promptOperations.get, { params }),
    await client.call(promptOperations.update, {
      params,
      body: { body: 'Leak: @@@langfusePrompt:name=roadmap|label=latest@@@' },
    }),
    await client.call(promptOperations.update, {
      params,
      body: { body: '@@@langfusePrompt:name=no-such|label=latest@@@' },
    }),
    await client.call(promptOperations.resolvedVersion, { params: { id: prompt.id, versionId } }),
    await client.call(promptOperations.compile, { params, body: { values: {} } }),
    await client.call(promptOperations.setCurrentVersion, { params, body: { versionId } }),
    await client.call(promptOperations.delete, { params }),
  ]
  expect(attempts.map((res) => res.status)).toEqual([404, 404, 404, 404, 404, 404, 404])
  // Not even a name oracle: a missing reference is the same 404 as an existing one.
  expect(errorOf(attempts[2]!).code).toBe('not_found')
  const own = await client.call(promptOperations.list, { query: { scope: 'owner' } })
  expect(own.body.items.map((item) => item.id)).not.toContain(prompt.id)
}

describe("a former member's team prompts", () => {
  it('are out of reach of a removed member, who reads no team prompt through a reference', async () => {
    const { client, user, prompt } = await memberWithPrompt('member')
    expect((await client.call(promptOperations.get, { params: { id: prompt.id } })).body.access.edit).toBe(
      true,
    )
    await remove(user.id)
    await expectLockedOut(client, prompt)
    // Text the team writes after the removal stays the team's.
    await admin.call(promptOperations.update, {
      params: { id: roadmap.id },
      body: { body: 'Q2: the secret plan' },
    })
    const stored = await testApp.database.db.select().from(prompts).where(eq(prompts.id, prompt.id))
    expect(stored).toHaveLength(1)
  })

  it('are out of reach of a removed team admin too', async () => {
    const { client, user, prompt } = await memberWithPrompt('admin')
    await remove(user.id)
    await expectLockedOut(client, prompt)
  })

  it("pass to the team's admins: they edit, set current and delete; a plain member still cannot", async () => {
    const { user, prompt } = await memberWithPrompt('member')
    const params = { id: prompt.id }
    const other = new TestClient(testApp)
    await other.signUp()
    await addMember(testApp, admin, teamId, other)
    // While the owner is a member, the prompt is theirs alone.
    const before = await admin.call(promptOperations.get, { params })
    expect(before.body.access).toEqual({ edit: false, delete: false, setCurrent: false })
    expect((await admin.call(promptOperations.update, { params, body: { title: 'Taken' } })).status).toBe(403)

    await remove(user.id)
    const after = await admin.call(promptOperations.get, { params })
    expect(after.body.access).toEqual({ edit: true, delete: true, setCurrent: true })
    const saved = await admin.call(promptOperations.update, {
      params,
      body: { body: 'Kept up by the team', baseVersionId: prompt.currentVersionId },
    })
    expect(saved.status).toBe(200)
    expect(saved.body.currentVersion?.body).toBe('Kept up by the team')
    const back = await admin.call(promptOperations.setCurrentVersion, {
      params,
      body: { versionId: prompt.currentVersionId! },
    })
    expect(back.status).toBe(200)
    // It stays with the team: an admin may not make it the former member's private prompt.
    const moved = await admin.call(promptOperations.update, { params, body: { visibility: 'private' } })
    expect(moved.status).toBe(403)
    expect(errorOf(moved).message).toBe("Only the prompt's owner can change whom it is shared with")
    const plain = await other.call(promptOperations.get, { params })
    expect(plain.body.access).toEqual({ edit: false, delete: false, setCurrent: false })
    expect((await other.call(promptOperations.delete, { params })).status).toBe(403)
    expect((await admin.call(promptOperations.delete, { params })).status).toBe(204)
  })

  it('come back to a member who is invited back', async () => {
    const { client, user, prompt } = await memberWithPrompt('member')
    await remove(user.id)
    await addMember(testApp, admin, teamId, client)
    const res = await client.call(promptOperations.get, { params: { id: prompt.id } })
    expect(res.body.access).toEqual({ edit: true, delete: true, setCurrent: true })
  })
})

describe('the team prompts of a deleted account', () => {
  it("pass to the team's admins, who edit and delete them", async () => {
    const { client, prompt } = await memberWithPrompt('member')
    const params = { id: prompt.id }
    expect(
      (await client.call(dataRightsOperations.deleteAccount, { body: { password: DEFAULT_PASSWORD } }))
        .status,
    ).toBe(204)
    const detail = await admin.call(promptOperations.get, { params })
    expect(detail.status).toBe(200)
    expect(detail.body).toMatchObject({ ownerDeleted: true, access: { edit: true, delete: true } })
    expect(
      (await admin.call(promptOperations.update, { params, body: { body: 'Still useful' } })).status,
    ).toBe(200)
    expect((await admin.call(promptOperations.delete, { params })).status).toBe(204)
  })
})

describe('a private prompt', () => {
  it('belongs to no team: the database refuses a team id on it', async () => {
    const { user } = await memberWithPrompt('member')
    const insert = testApp.database.db
      .insert(prompts)
      .values({ ownerUserId: user.id, title: 'Odd', visibility: 'private', teamId })
    await expect(insert).rejects.toThrow()
  })
})
