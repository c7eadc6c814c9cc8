import { and, desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiKey, CreatedApiKey } from '../../../domain/api-keys.ts'
import type { Page } from '../../../domain/cursor.ts'
import type { ErrorBody } from '../../../domain/errors.ts'
import type { PromptDetail, PromptSummary } from '../../../domain/prompts.ts'
import { mailOutbox, prompts } from '../../db/schema/index.ts'
import { keyPairAuthorization, TestClient } from '../../testing/client.ts'
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

async function person() {
  const client = new TestClient(testApp)
  await client.signUp()
  return client
}

async function createKey(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post<CreatedApiKey>('/api/v1/api-keys', {
    name: 'CI',
    scope: 'read_write',
    ...body,
  })
  expect(res.status).toBe(201)
  return res.body
}

/** A code client: no cookies, no Origin, only the key. */
async function withKey<T>(authorization: string, method: string, path: string, body?: unknown) {
  const res = await testApp.app.request(path, {
    method,
    headers: { Authorization: authorization, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, body: (await res.json().catch(() => null)) as T }
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
    const bearer = `Bearer ${(await createKey(me)).secretKey}`

    expect((await withKey(bearer, 'GET', `/api/v1/prompts/${mine.id}`)).status).toBe(200)
    expect((await withKey(bearer, 'GET', `/api/v1/prompts/${shared.id}`)).status).toBe(404)
    const versionPath = `/api/v1/prompts/${shared.id}/versions/${shared.currentVersionId}/resolved`
    expect((await withKey(bearer, 'GET', versionPath)).status).toBe(404)
    expect(
      (await withKey(bearer, 'POST', `/api/v1/prompts/${shared.id}/compile`, { values: {} })).status,
    ).toBe(404)
    expect(
      (await withKey(bearer, 'PATCH', `/api/v1/prompts/${shared.id}`, { title: 'Changed' })).status,
    ).toBe(404)
    const teamList = await withKey<Page<PromptSummary>>(bearer, 'GET', '/api/v1/prompts?scope=team')
    expect(teamList.body.items).toEqual([])
    const own = await withKey<Page<PromptSummary>>(bearer, 'GET', '/api/v1/prompts?scope=owner')
    expect(own.body.items.map((item) => item.id)).toEqual([mine.id])
    expect((await withKey(bearer, 'GET', `/api/v1/prompts/export?teamId=${team.id}`)).status).toBe(404)

    const created = await withKey<ErrorBody>(bearer, 'POST', '/api/v1/prompts', {
      title: 'Into the team',
      body: 'x',
      visibility: 'team',
      teamId: team.id,
    })
    expect(created.status).toBe(400)
    expect(created.body.error.fields?.teamId).toBe(
      "A personal API key reaches your personal prompts only; a team's prompts need a key of that team",
    )
    const moved = await withKey(bearer, 'PATCH', `/api/v1/prompts/${mine.id}`, {
      visibility: 'team',
      teamId: team.id,
    })
    expect(moved.status).toBe(400)
    // The signed-in user still reaches the team's prompt.
    expect((await me.get(`/api/v1/prompts/${shared.id}`)).status).toBe(200)
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
    expect((await first.delete(`/api/v1/teams/${team.id}/members/${second.user!.id}`)).status).toBe(204)

    const [notice] = await mailsTo(first.user!.email, 'team_keys_to_review')
    expect(notice?.textBody).toContain(key.publicKey)
    expect(notice?.textBody).toContain(second.user!.email)

    const made = await withKey(keyPairAuthorization(key), 'POST', '/api/public/v2/prompts', {
      name: 'made-by-key',
      prompt: 'Built after the removal',
    })
    expect(made.status).toBe(201)
    const [row] = await testApp.database.db
      .select({ id: prompts.id })
      .from(prompts)
      .where(and(eq(prompts.teamId, team.id), eq(prompts.name, 'made-by-key')))
    // The former admin neither sees nor manages it; the team's admins do.
    expect((await second.get(`/api/v1/prompts/${row!.id}`)).status).toBe(404)
    const seen = await first.get<PromptDetail>(`/api/v1/prompts/${row!.id}`)
    expect(seen.body.access).toEqual({ edit: true, delete: true, setCurrent: true })

    const listed = await first.get<Page<ApiKey>>(`/api/v1/api-keys?teamId=${team.id}`)
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: key.id, createdByEmail: second.user!.email }),
    ])
    expect((await first.delete(`/api/v1/api-keys/${key.id}`)).status).toBe(204)
    expect((await withKey(keyPairAuthorization(key), 'GET', '/api/public/v2/prompts')).status).toBe(401)
  })

  it('is put up for review when its creator is demoted too', async () => {
    const { first, second, team, key } = await teamWithKeyOfSecondAdmin()
    const demoted = await first.patch(`/api/v1/teams/${team.id}/members/${second.user!.id}`, {
      role: 'member',
    })
    expect(demoted.status).toBe(200)
    const [notice] = await mailsTo(first.user!.email, 'team_keys_to_review')
    expect(notice?.textBody).toContain(key.publicKey)
    expect(await mailsTo(second.user!.email, 'team_keys_to_review')).toEqual([])
  })
})
