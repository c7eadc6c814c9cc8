import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamSummary } from '../../../domain/teams.ts'
import { teamMembers, teams } from '../../db/schema/index.ts'
import { TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

describe('GET /api/v1/teams', () => {
  it('lists the teams the user belongs to with role and member count', async () => {
    const alice = new TestClient(testApp)
    const bob = new TestClient(testApp)
    const a = await alice.signUp()
    const b = await bob.signUp()
    const db = testApp.database.db
    const [team] = await db.insert(teams).values({ name: 'Zeta', createdByUserId: a.id }).returning()
    const [other] = await db.insert(teams).values({ name: 'alpha', createdByUserId: b.id }).returning()
    await db.insert(teamMembers).values([
      { teamId: team!.id, userId: a.id, role: 'admin' },
      { teamId: team!.id, userId: b.id, role: 'member' },
      { teamId: other!.id, userId: b.id, role: 'admin' },
    ])
    const res = await bob.get<{ items: TeamSummary[] }>('/api/v1/teams')
    expect(res.status).toBe(200)
    expect(res.body.items.map((t) => [t.name, t.role, t.memberCount, t.isAdmin])).toEqual([
      ['alpha', 'admin', 1, true],
      ['Zeta', 'member', 2, false],
    ])
    const mine = await alice.get<{ items: TeamSummary[] }>('/api/v1/teams')
    expect(mine.body.items.map((t) => t.name)).toEqual(['Zeta'])
  })

  it('is empty for a user without teams and 401 when signed out', async () => {
    const carol = new TestClient(testApp)
    await carol.signUp()
    expect((await carol.get<{ items: TeamSummary[] }>('/api/v1/teams')).body.items).toEqual([])
    expect((await new TestClient(testApp).get('/api/v1/teams')).status).toBe(401)
  })
})
