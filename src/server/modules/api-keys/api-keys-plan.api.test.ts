import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { langfuseOperations } from '../../../domain/api/langfuse.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { CreatedApiKey } from '../../../domain/api-keys.ts'
import { errorOf, keyClient, keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

/**
 * A key's plan is read with the key itself (one statement, see `subjectRowColumns`): the space's
 * plan still decides on every request, for personal and team keys alike.
 */
let testApp: TestApp
let owner: TestClient
let admin: TestClient
let teamId: string
let offsetDays = 0
const now = () => new Date(Date.now() + offsetDays * 24 * 60 * 60 * 1000)

beforeAll(async () => {
  testApp = await createTestApp({ plansEnabled: true }, { now })
  await new TestClient(testApp).signUp()
  owner = new TestClient(testApp)
  admin = new TestClient(testApp)
  await owner.signUp()
  const adminUser = await admin.signUp()
  teamId = await insertTeam(testApp.database.db, 'Plan keys', [{ userId: adminUser.id, role: 'admin' }])
})
afterAll(() => testApp.close())

const fetchPrompts = (key: CreatedApiKey) =>
  keyClient(testApp, keyPairAuthorization(key)).call(langfuseOperations.list, {})

describe("a key follows its space's plan on every request", () => {
  it('serves during the trial and is locked once the trial has ended', async () => {
    await createPromptAs(owner, { title: 'Kept', body: 'x' })
    const personal = (await owner.call(apiKeyOperations.create, { body: { name: 'mine' } })).body
    const team = (await admin.call(apiKeyOperations.create, { body: { name: 'team', teamId } })).body
    expect((await fetchPrompts(personal)).status).toBe(200)
    expect((await fetchPrompts(team)).status).toBe(200)

    offsetDays = 15
    try {
      for (const key of [personal, team]) {
        const res = await fetchPrompts(key)
        expect(res.status).toBe(403)
        const body = res.body as unknown as { message: string; error: string }
        expect(body.error).toBe('ForbiddenError')
        expect(body.message).not.toBe('')
      }
      const v1 = await keyClient(testApp, `Bearer ${personal.secretKey}`).call(promptOperations.list, {})
      expect(v1.status).toBe(403)
      const refusal = errorOf(v1)
      expect(refusal.code).toBe('plan_limit')
      expect(refusal.planLimit).toMatchObject({ reason: 'payment_required', resource: 'api_access' })
    } finally {
      offsetDays = 0
    }
    expect((await fetchPrompts(personal)).status).toBe(200)
  })
})
