import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import type { PromptDetail } from '../../../domain/prompts.ts'
import { TestClient, uniqueEmail } from '../../testing/client.ts'
import { createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

/**
 * Writes of one team at the same moment (decision 0258): saves of team prompts, new team prompts
 * and invitations once deadlocked on PostgreSQL (a save's key check on the team, an invitation's
 * team lock, a new prompt's dashboard count). Every one of them must succeed.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

describe('concurrent writes in one team', () => {
  it('saves, new team prompts and invitations all succeed together', async () => {
    const owner = new TestClient(testApp)
    await owner.signUp()
    const teamId = (await createTeamAs(owner, 'Busy team')).id
    const shared: PromptDetail[] = []
    for (let i = 0; i < 4; i++) {
      shared.push(await createPromptAs(owner, { title: `Shared ${i}`, visibility: 'team', teamId }))
    }
    const failures: string[] = []
    const expectStatus = async (what: string, expected: number, request: Promise<{ status: number }>) => {
      const res = await request
      if (res.status !== expected) failures.push(`${what}: ${res.status} ${JSON.stringify(res)}`)
    }
    for (let round = 0; round < 20; round++) {
      await Promise.all([
        ...shared.map((prompt, i) =>
          expectStatus(
            'save',
            200,
            owner.call(promptOperations.update, {
              params: { id: prompt.id },
              body: { body: `Round ${round} of ${i}` },
            }),
          ),
        ),
        ...[0, 1, 2].map((i) =>
          expectStatus(
            'create',
            201,
            owner.call(promptOperations.create, {
              body: { title: `New ${round}-${i}`, body: 'x', visibility: 'team', teamId },
            }),
          ),
        ),
        ...[0, 1, 2].map(() =>
          expectStatus(
            'invite',
            201,
            owner.call(teamOperations.invite, {
              params: { teamId },
              body: { email: uniqueEmail('busy'), role: 'member' },
            }),
          ),
        ),
      ])
    }
    expect(failures).toEqual([])
    // 20 rounds: with fewer, the old locks deadlocked too rarely to be caught (here 1 run in 2).
  }, 120_000)
})
