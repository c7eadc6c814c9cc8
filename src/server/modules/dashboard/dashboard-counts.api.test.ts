import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dashboardOperations } from '../../../domain/api/dashboard.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import type { PromptDetail } from '../../../domain/prompts.ts'
import { queryRows } from '../../db/rows.ts'
import { TestClient } from '../../testing/client.ts'
import { addMember, createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'
import { moveWhileAVersionIsWritten } from './test-fixtures.ts'

/**
 * The dashboard's totals come from counts the writing transactions keep (migrations 0257, 0259). After
 * every kind of write they must equal a count of the rows, and a person counts only the spaces they
 * still reach.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

function user(): Promise<TestClient> {
  return TestClient.signedUp(testApp)
}

async function totals(client: TestClient, teamId?: string) {
  const res = await client.call(dashboardOperations.get, { query: { teamId } })
  expect(res.status).toBe(200)
  return { prompts: res.body.milestones.totalPrompts, versions: res.body.milestones.totalVersions }
}

type CountRow = { user_id: string; space_id: string; prompts: number; versions: number }

/** The kept counts, added up per person and space (those that count anything), in one order. */
async function keptCounts(): Promise<CountRow[]> {
  const rows = await queryRows<CountRow>(
    testApp.database.db,
    sql`SELECT user_id, space_id, sum(prompts)::int AS prompts, sum(versions)::int AS versions
      FROM dashboard_counts GROUP BY user_id, space_id
      HAVING sum(prompts) <> 0 OR sum(versions) <> 0 ORDER BY user_id, space_id`,
  )
  return rows.map((row) => ({ ...row }))
}

/** The kept counts equal the counts of the rows, made again from scratch. */
async function expectCountsMatchTheRows() {
  const kept = await keptCounts()
  await testApp.database.db.execute(sql`SELECT dashboard_counts_recount()`)
  expect(kept).toEqual(await keptCounts())
}

async function edit(client: TestClient, prompt: PromptDetail, change: Record<string, unknown>) {
  const res = await client.call(promptOperations.update, { params: { id: prompt.id }, body: change })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

describe('dashboard totals kept by the writes', () => {
  it('follow new prompts and versions, moves between spaces, deletes and a member who leaves', async () => {
    const admin = await user()
    const member = await user()
    const teamId = (await createTeamAs(admin, 'Counters')).id
    await addMember(testApp, admin, teamId, member)

    // Personal prompts and a new version.
    const mine = await createPromptAs(member, { title: 'Mine', body: 'one' })
    await edit(member, mine, { body: 'two' })
    await createPromptAs(member, { title: 'Also mine' })
    expect(await totals(member)).toEqual({ prompts: 2, versions: 3 })
    await expectCountsMatchTheRows()

    // A team prompt with two versions.
    const shared = await createPromptAs(member, { title: 'Shared', visibility: 'team', teamId })
    await edit(member, shared, { body: 'second' })
    expect(await totals(admin, teamId)).toEqual({ prompts: 1, versions: 2 })
    expect(await totals(member)).toEqual({ prompts: 3, versions: 5 })
    expect(await totals(admin)).toEqual({ prompts: 0, versions: 0 })
    await expectCountsMatchTheRows()

    // The member moves a personal prompt into the team: still theirs, now the team's too.
    const moved = await edit(member, mine, { visibility: 'team', teamId })
    expect(await totals(admin, teamId)).toEqual({ prompts: 2, versions: 4 })
    expect(await totals(member)).toEqual({ prompts: 3, versions: 5 })
    await expectCountsMatchTheRows()

    // And takes the first one out of the team again.
    await edit(member, shared, { visibility: 'private' })
    expect(await totals(admin, teamId)).toEqual({ prompts: 1, versions: 2 })
    expect(await totals(member)).toEqual({ prompts: 3, versions: 5 })
    await expectCountsMatchTheRows()

    // A version deleted, then a whole prompt.
    await testApp.database.db.execute(
      sql`DELETE FROM prompt_versions WHERE prompt_id = ${moved.id} AND version_number = 1`,
    )
    expect(await totals(admin, teamId)).toEqual({ prompts: 1, versions: 1 })
    expect(await totals(member)).toEqual({ prompts: 3, versions: 4 })
    await expectCountsMatchTheRows()
    const other = await createPromptAs(member, { title: 'Short-lived' })
    expect((await member.call(promptOperations.delete, { params: { id: other.id } })).status).toBe(204)
    expect(await totals(member)).toEqual({ prompts: 3, versions: 4 })
    await expectCountsMatchTheRows()

    // Removed from the team, the member no longer counts the team prompt they own or their version in it.
    expect(
      (await admin.call(teamOperations.removeMember, { params: { teamId, userId: member.user!.id } })).status,
    ).toBe(204)
    expect(await totals(member)).toEqual({ prompts: 2, versions: 3 })
    // The team still counts its prompt.
    expect(await totals(admin, teamId)).toEqual({ prompts: 1, versions: 1 })
    await expectCountsMatchTheRows()

    // The team's admin now looks after it: a new version counts for the admin, in the team.
    await edit(admin, moved, { body: 'kept up by the team' })
    expect(await totals(admin, teamId)).toEqual({ prompts: 1, versions: 2 })
    expect(await totals(admin)).toEqual({ prompts: 0, versions: 1 })
    expect(await totals(member)).toEqual({ prompts: 2, versions: 3 })
    await expectCountsMatchTheRows()
  })

  it('are rows of changes that a fold turns into one per person and space, totals unchanged', async () => {
    const me = await user()
    const prompt = await createPromptAs(me, { title: 'Folded' })
    for (const body of ['b', 'c']) await edit(me, prompt, { body })
    const rowsOfMine = async () =>
      (
        await queryRows<{ n: number }>(
          testApp.database.db,
          sql`SELECT count(*)::int AS n FROM dashboard_counts WHERE user_id = ${me.user!.id}`,
        )
      )[0]!.n
    // One row per write: the prompt with its first version (the prompt's row counts both, as it is
    // written after its versions: decision 0271), two saves.
    expect(await rowsOfMine()).toBe(3)
    const before = await keptCounts()
    const [folded] = await queryRows<{ n: number }>(
      testApp.database.db,
      sql`SELECT dashboard_counts_fold() AS n`,
    )
    expect(folded!.n).toBeGreaterThanOrEqual(2)
    expect(await rowsOfMine()).toBe(1)
    expect(await keptCounts()).toEqual(before)
    expect(await totals(me)).toEqual({ prompts: 1, versions: 3 })
    await expectCountsMatchTheRows()
  })

  it('take away the prompts and versions of a deleted prompt with everything in it', async () => {
    const me = await user()
    const prompt = await createPromptAs(me, { title: 'Many versions' })
    for (const body of ['b', 'c', 'd']) await edit(me, prompt, { body })
    expect(await totals(me)).toEqual({ prompts: 1, versions: 4 })
    // Deleted by the database's cascade (as an account's prompts are), not by the app's steps.
    await testApp.database.db.execute(sql`DELETE FROM prompts WHERE id = ${prompt.id}`)
    expect(await totals(me)).toEqual({ prompts: 0, versions: 0 })
    await expectCountsMatchTheRows()
  })

  // Two transactions open at once: PostgreSQL only (PGlite has one connection).
  it.runIf(process.env.TEST_DB === 'postgres')(
    'stay right when a prompt moves while a version of it is being written, in either order',
    async () => {
      const me = await user()
      await moveWhileAVersionIsWritten(testApp, me, async (teamId, moved) => {
        // Moved in, the version written meanwhile went along; moved out, the team counts nothing.
        expect(await totals(me, teamId)).toEqual(
          moved === 'in' ? { prompts: 1, versions: 2 } : { prompts: 0, versions: 0 },
        )
        await expectCountsMatchTheRows()
      })
    },
  )
})
