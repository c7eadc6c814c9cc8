import { and, desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { langfuseOperations } from '../../../domain/api/langfuse.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import { mailOutbox, prompts } from '../../db/schema/index.ts'
import { errorOf, keyClient, keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { addMember, createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

/**
 * What a key reaches and whom its work belongs to (decision 0242): a personal key reaches the
 * personal space only; a team key is the team's, and outlives its creator's admin role only for
 * the team's remaining admins to review.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
  await new TestClient(testApp).signUp() // the installation's first account: a global admin
})
afterAll(() => testApp?.close())

function person(): Promise<TestClient> {
  return TestClient.signedUp(testApp)
}

async function createKey(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.call(apiKeyOperations.create, {
    body: { name: 'CI', scope: 'read_write', ...body },
  })
  expect(res.status).toBe(201)
  return res.body
}

async function mailsTo(to: string, kind: string) {
  return testApp.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.kind, kind)))
    .orderBy(desc(mailOutbox.createdAt))
}

describe('a personal key', () => {
  it("reaches its user's personal prompts only, never a team's", async () => {
    const me = await person()
    const team = await createTeamAs(me, 'Locked team')
    const mine = await createPromptAs(me, { title: 'Personal' })
    const shared = await createPromptAs(me, { title: 'Shared', visibility: 'team', teamId: team.id })
    const byKey = keyClient(testApp, `Bearer ${(await createKey(me)).secretKey}`)

    const params = { id: shared.id }
    expect((await byKey.call(promptOperations.get, { params: { id: mine.id } })).status).toBe(200)
    expect((await byKey.call(promptOperations.get, { params })).status).toBe(404)
    const version = { id: shared.id, versionId: shared.currentVersionId! }
    expect((await byKey.call(promptOperations.resolvedVersion, { params: version })).status).toBe(404)
    expect((await byKey.call(promptOperations.compile, { params, body: { values: {} } })).status).toBe(404)
    const changed = await byKey.call(promptOperations.update, { params, body: { title: 'Changed' } })
    expect(changed.status).toBe(404)
    const teamList = await byKey.call(promptOperations.list, { query: { scope: 'team' } })
    expect(teamList.body.items).toEqual([])
    const own = await byKey.call(promptOperations.list, { query: { scope: 'owner' } })
    expect(own.body.items.map((item) => item.id)).toEqual([mine.id])
    const exported = await byKey.call(promptOperations.exportPrompts, { query: { teamId: team.id } })
    expect(exported.status).toBe(404)

    const created = await byKey.call(promptOperations.create, {
      body: { title: 'Into the team', body: 'x', visibility: 'team', teamId: team.id },
    })
    expect(created.status).toBe(400)
    expect(errorOf(created).fields?.teamId).toBe(
      "A personal API key reaches your personal prompts only; a team's prompts need a key of that team",
    )
    const moved = await byKey.call(promptOperations.update, {
      params: { id: mine.id },
      body: { visibility: 'team', teamId: team.id },
    })
    expect(moved.status).toBe(400)
    // The signed-in user still reaches the team's prompt.
    expect((await me.call(promptOperations.get, { params: { id: shared.id } })).status).toBe(200)
  })
})

describe('a team key whose creator stops being an admin', () => {
  async function teamWithKeyOfSecondAdmin() {
    const first = await person()
    const second = await person()
    const team = await createTeamAs(first, 'Keyholders')
    await addMember(testApp, first, team.id, second, 'admin')
    const key = await createKey(second, { teamId: team.id, name: 'Deploys' })
    return { first, second, team, key }
  }

  it('keeps serving the team; what it creates is not the former admin’s; the admins left review it', async () => {
    const { first, second, team, key } = await teamWithKeyOfSecondAdmin()
    const membership = { teamId: team.id, userId: second.user!.id }
    expect((await first.call(teamOperations.removeMember, { params: membership })).status).toBe(204)

    const [notice] = await mailsTo(first.user!.email, 'team_keys_to_review')
    expect(notice?.textBody).toContain(key.publicKey)
    expect(notice?.textBody).toContain(second.user!.email)

    const made = await keyClient(testApp, keyPairAuthorization(key)).call(langfuseOperations.create, {
      body: { name: 'made-by-key', prompt: 'Built after the removal' },
    })
    expect(made.status).toBe(201)
    const [row] = await testApp.database.db
      .select({ id: prompts.id })
      .from(prompts)
      .where(and(eq(prompts.teamId, team.id), eq(prompts.name, 'made-by-key')))
    // The former admin neither sees nor manages it; the team's admins do.
    expect((await second.call(promptOperations.get, { params: { id: row!.id } })).status).toBe(404)
    const seen = await first.call(promptOperations.get, { params: { id: row!.id } })
    expect(seen.body.access).toEqual({ edit: true, delete: true, setCurrent: true })

    const listed = await first.call(apiKeyOperations.list, { query: { teamId: team.id } })
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: key.id, createdByEmail: second.user!.email }),
    ])
    expect((await first.call(apiKeyOperations.revoke, { params: { id: key.id } })).status).toBe(204)
    expect(
      (await keyClient(testApp, keyPairAuthorization(key)).call(langfuseOperations.list, {})).status,
    ).toBe(401)
  })

  it('is put up for review when its creator is demoted too', async () => {
    const { first, second, team, key } = await teamWithKeyOfSecondAdmin()
    const demoted = await first.call(teamOperations.changeRole, {
      params: { teamId: team.id, userId: second.user!.id },
      body: { role: 'member' },
    })
    expect(demoted.status).toBe(200)
    const [notice] = await mailsTo(first.user!.email, 'team_keys_to_review')
    expect(notice?.textBody).toContain(key.publicKey)
    expect(await mailsTo(second.user!.email, 'team_keys_to_review')).toEqual([])
  })
})
