import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamOperations } from '../../domain/api/teams.ts'
import { subjectKeyOf } from '../../domain/plans.ts'
import type { Tx } from '../db/client.ts'
import { queryRows } from '../db/rows.ts'
import { TestClient } from '../testing/client.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { createPlanGate, subjectKeySql } from './plan-gate.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp({ plansEnabled: true })
})
afterAll(() => testApp.close())

/** The transaction, counting the statements run through it. */
function counting(tx: Tx): { tx: Tx; statements: () => number } {
  let statements = 0
  const proxy = new Proxy(tx, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver)
      if (property !== 'execute' || typeof value !== 'function') return value
      return (...args: unknown[]) => {
        statements += 1
        return value.apply(target, args)
      }
    },
  })
  return { tx: proxy, statements: () => statements }
}

it('reads a subject once per transaction for edits, and counts again for every create', async () => {
  const user = new TestClient(testApp)
  const { id: userId } = await user.signUp()
  const subject = { context: 'personal', userId } as const
  const gate = createPlanGate({ enabled: true })
  await testApp.database.db.transaction(async (real) => {
    const { tx, statements } = counting(real)
    await gate.require(tx, subject, 'editPrompt')
    const once = statements()
    expect(once).toBeGreaterThan(0)
    await gate.require(tx, subject, 'editPrompt')
    expect(statements()).toBe(once)
    await gate.require(tx, subject, 'createPrompt')
    expect(statements()).toBeGreaterThan(once)
  })
  // Another transaction reads again: its answer may differ (the plan changed meanwhile).
  await testApp.database.db.transaction(async (real) => {
    const { tx, statements } = counting(real)
    await gate.require(tx, subject, 'editPrompt')
    expect(statements()).toBeGreaterThan(0)
  })
})

it('does not remember a refusal: a subject that may not write is refused each time', async () => {
  const user = new TestClient(testApp)
  const { id: userId } = await user.signUp()
  let offset = 0
  const gate = createPlanGate({ enabled: true, now: () => new Date(Date.now() + offset) })
  offset = 400 * 24 * 60 * 60 * 1000 // long after the trial, no plan chosen
  await testApp.database.db.transaction(async (tx) => {
    await expect(gate.require(tx, { context: 'personal', userId }, 'editPrompt')).rejects.toMatchObject({
      code: 'plan_limit',
    })
    await expect(gate.require(tx, { context: 'personal', userId }, 'editPrompt')).rejects.toMatchObject({
      code: 'plan_limit',
    })
  })
})

it("keys a user's and a team's plan in SQL as the domain keys them", async () => {
  const user = new TestClient(testApp)
  const { id: userId } = await user.signUp()
  const team = await user.call(teamOperations.create, { body: { name: 'Keyed' } })
  expect(team.status).toBe(201)
  const teamId = team.body.id
  const [row] = await queryRows<{ user_key: string; team_key: string }>(
    testApp.database.db,
    sql`SELECT ${subjectKeySql('personal', sql`u.id`)} AS user_key, ${subjectKeySql('team', sql`t.id`)} AS team_key
        FROM users u, teams t WHERE u.id = ${userId} AND t.id = ${teamId}`,
  )
  expect(row).toEqual({
    user_key: subjectKeyOf({ context: 'personal', userId }),
    team_key: subjectKeyOf({ context: 'team', teamId }),
  })
})
