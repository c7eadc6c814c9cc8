import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamSummary } from '../../../domain/teams.ts'
import { TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

describe('the end-to-end seeding routes', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp()
  })
  afterAll(() => testApp.close())

  it('make a team of existing accounts under NODE_ENV=test', async () => {
    const alice = new TestClient(testApp)
    const bob = new TestClient(testApp)
    const a = await alice.signUp()
    const b = await bob.signUp()
    const res = await alice.post<{ id: string }>('/api/testing/teams', {
      name: 'Seeded',
      members: [{ email: a.email, role: 'admin' }, { email: b.email.toUpperCase() }],
    })
    expect(res.status).toBe(201)
    const teams = await bob.get<{ items: TeamSummary[] }>('/api/v1/teams')
    expect(teams.body.items.map((t) => [t.id, t.name, t.role, t.memberCount])).toEqual([
      [res.body.id, 'Seeded', 'member', 2],
    ])
    const unknown = await alice.post('/api/testing/teams', {
      name: 'X',
      members: [{ email: 'nobody@example.com' }],
    })
    expect(unknown.status).toBe(404)
  })

  it.each(['development', 'production'] as const)('do not exist when NODE_ENV=%s', async (env) => {
    const other = await createTestApp({ env })
    try {
      const res = await new TestClient(other).post('/api/testing/teams', { name: 'X', members: [] })
      expect(res.status).toBe(404)
    } finally {
      await other.close()
    }
  })
})
