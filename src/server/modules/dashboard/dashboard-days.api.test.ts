import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import { dashboardOperations } from '../../../domain/api/dashboard.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import {
  type Dashboard,
  lastUtcDays,
  PULSE_LONG_WINDOW_DAYS,
  type PulseCounts,
  STREAK_LOOKBACK_DAYS,
} from '../../../domain/dashboard.ts'
import type { PromptDetail } from '../../../domain/prompts.ts'
import { queryRows } from '../../db/rows.ts'
import { DASHBOARD_DAYS_KEPT } from '../../jobs/prune.ts'
import { TestClient } from '../../testing/client.ts'
import { addMember, createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createConversation } from '../conversations/test-fixtures.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'
import { moveWhileAVersionIsWritten } from './test-fixtures.ts'

/**
 * The pulse and the weekly chart come from per-day counts the writing transactions keep (migration
 * 0268). After every kind of write they must equal a count of the rows made again from scratch,
 * and the dashboard must show what the rows say.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

/** A moment `days` UTC days before today, at noon: its day is certain whatever the clock. */
const daysAgo = (days: number) => `${lastUtcDays(days + 1)[0]}T12:00:00Z`

function user(): Promise<TestClient> {
  return TestClient.signedUp(testApp)
}

type DayRow = {
  space_id: string
  user_id: string | null
  day: string
  prompts: number
  versions: number
  revisions: number
  conversations: number
}

/** The kept counts, added up per space, person and day (those that count anything), in one order. */
async function keptDays(from = '0001-01-01'): Promise<DayRow[]> {
  const rows = await queryRows<DayRow>(
    testApp.database.db,
    sql`SELECT space_id, user_id, to_char(day, 'YYYY-MM-DD') AS day, sum(prompts)::int AS prompts,
        sum(versions)::int AS versions, sum(revisions)::int AS revisions, sum(conversations)::int AS conversations
      FROM dashboard_days WHERE day >= ${from}::date GROUP BY space_id, user_id, day
      HAVING sum(prompts) <> 0 OR sum(versions) <> 0 OR sum(revisions) <> 0 OR sum(conversations) <> 0
      ORDER BY space_id, user_id NULLS FIRST, day`,
  )
  return rows.map((row) => ({ ...row }))
}

/** The kept counts equal the counts of the rows, made again from scratch. */
async function expectDaysMatchTheRows() {
  const kept = await keptDays()
  await testApp.database.db.execute(sql`SELECT dashboard_days_recount()`)
  expect(kept).toEqual(await keptDays())
}

/** The space of personal prompts, and the one older days are kept in, per person (decision 0272). */
const PERSONAL_SPACE = '00000000-0000-0000-0000-000000000000'
const ALL_SPACES = 'ffffffff-ffff-ffff-ffff-ffffffffffff'

async function dashboardOf(client: TestClient, teamId?: string): Promise<Dashboard> {
  const res = await client.call(dashboardOperations.get, { query: { teamId } })
  expect(res.status).toBe(200)
  return res.body
}

async function pulse(client: TestClient, teamId?: string): Promise<PulseCounts> {
  return (await dashboardOf(client, teamId)).pulse.current
}

async function weekly(client: TestClient, teamId?: string): Promise<number[]> {
  const res = await client.call(dashboardOperations.get, { query: { teamId } })
  return res.body.weekly.map((day) => day.count)
}

async function edit(client: TestClient, prompt: PromptDetail, change: Record<string, unknown>) {
  const res = await client.call(promptOperations.update, { params: { id: prompt.id }, body: change })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

async function backdate(table: 'prompts' | 'prompt_versions' | 'conversations', where: string, at: string) {
  const column = sql.identifier(table === 'prompt_versions' ? 'prompt_id' : 'id')
  await testApp.database.db.execute(
    sql`UPDATE ${sql.identifier(table)} SET created_at = ${at}::timestamptz WHERE ${column} = ${where}`,
  )
}

describe('dashboard days kept by the writes', () => {
  it('follow new prompts, versions and conversations, moves, backdating, deletes and members who go', async () => {
    const admin = await user()
    const member = await user()
    const teamId = (await createTeamAs(admin, 'Days')).id
    await addMember(testApp, admin, teamId, member)

    // Personal work: a prompt with a second version and a conversation.
    const mine = await createPromptAs(member, { title: 'Mine', body: 'one' })
    await edit(member, mine, { body: 'two' })
    await createConversation(member, { title: 'Personal chat' })
    expect(await pulse(member)).toEqual({ prompts: 1, versions: 2, conversations: 1 })
    expect((await weekly(member)).at(-1)).toBe(3)
    await expectDaysMatchTheRows()

    // Team work: the member's prompt with two versions; the admin's team conversation.
    const shared = await createPromptAs(member, { title: 'Shared', visibility: 'team', teamId })
    await edit(member, shared, { body: 'second' })
    const chat = await createConversation(admin, { title: 'Team chat', teamId })
    expect(await pulse(admin, teamId)).toEqual({ prompts: 1, versions: 2, conversations: 1 })
    // The personal pulse counts what the caller created, in any space.
    expect(await pulse(admin)).toEqual({ prompts: 0, versions: 0, conversations: 1 })
    expect(await pulse(member)).toEqual({ prompts: 2, versions: 4, conversations: 1 })
    await expectDaysMatchTheRows()

    // Moved into the team and out again: the team counts it, then no longer.
    await edit(member, mine, { visibility: 'team', teamId })
    expect(await pulse(admin, teamId)).toEqual({ prompts: 2, versions: 4, conversations: 1 })
    await expectDaysMatchTheRows()
    await edit(member, mine, { visibility: 'private' })
    expect(await pulse(admin, teamId)).toEqual({ prompts: 1, versions: 2, conversations: 1 })
    expect(await pulse(member)).toEqual({ prompts: 2, versions: 4, conversations: 1 })
    await expectDaysMatchTheRows()

    // Created earlier (as a test, or an import keeping dates, may say): the counts move days.
    await backdate('prompts', shared.id, daysAgo(3))
    await backdate('prompt_versions', shared.id, daysAgo(10))
    await backdate('conversations', chat.id, daysAgo(20))
    expect(await pulse(admin, teamId)).toEqual({ prompts: 1, versions: 0, conversations: 0 })
    expect(await weekly(admin, teamId)).toEqual([0, 0, 0, 1, 0, 0, 0])
    await expectDaysMatchTheRows()

    // A version deleted, a conversation moved out of the team (its team deleted), one deleted.
    await testApp.database.db.execute(
      sql`DELETE FROM prompt_versions WHERE prompt_id = ${mine.id} AND version_number = 1`,
    )
    await testApp.database.db.execute(sql`UPDATE conversations SET team_id = NULL WHERE id = ${chat.id}`)
    await expectDaysMatchTheRows()
    const gone = await createConversation(member, { title: 'Short-lived', teamId })
    expect((await pulse(admin, teamId)).conversations).toBe(1)
    expect((await member.call(conversationOperations.delete, { params: { id: gone.id } })).status).toBe(204)
    expect((await pulse(admin, teamId)).conversations).toBe(0)
    await expectDaysMatchTheRows()

    // A prompt deleted through the app: it and its versions go (the member's other version is
    // of 10 days ago now).
    expect(await pulse(member)).toEqual({ prompts: 2, versions: 1, conversations: 1 })
    expect((await member.call(promptOperations.delete, { params: { id: mine.id } })).status).toBe(204)
    expect(await pulse(member)).toEqual({ prompts: 1, versions: 0, conversations: 1 })
    await expectDaysMatchTheRows()

    // A member removed: the team keeps counting their work (it stays with the team), and they
    // still count what they created.
    const before = await pulse(admin, teamId)
    expect(
      (await admin.call(teamOperations.removeMember, { params: { teamId, userId: member.user!.id } })).status,
    ).toBe(204)
    expect(await pulse(admin, teamId)).toEqual(before)
    expect(await pulse(member)).toEqual({ prompts: 1, versions: 0, conversations: 1 })
    await expectDaysMatchTheRows()

    // The team's admin now looks after the member's prompt: a version by someone else than its owner.
    await edit(admin, shared, { body: 'kept up by the team' })
    expect(await pulse(admin, teamId)).toEqual({ prompts: 1, versions: 1, conversations: 0 })
    expect(await pulse(admin)).toEqual({ prompts: 0, versions: 1, conversations: 0 })
    await expectDaysMatchTheRows()

    // A prompt given to another owner counts for them; its version still for who wrote it.
    const given = await createPromptAs(member, { title: 'Given away' })
    await testApp.database.db.execute(
      sql`UPDATE prompts SET owner_user_id = ${admin.user!.id} WHERE id = ${given.id}`,
    )
    expect(await pulse(member)).toEqual({ prompts: 1, versions: 1, conversations: 1 })
    expect(await pulse(admin)).toEqual({ prompts: 1, versions: 1, conversations: 0 })
    await expectDaysMatchTheRows()

    // The admin's account deleted by the database's cascade: their prompts and conversations go,
    // and their version of the team prompt has no writer any more (the team still counts it).
    await testApp.database.db.execute(sql`DELETE FROM users WHERE id = ${admin.user!.id}`)
    expect(await pulse(member)).toEqual({ prompts: 1, versions: 0, conversations: 1 })
    const today = lastUtcDays(1)[0]!
    expect((await keptDays(today)).filter((row) => row.space_id === teamId)).toEqual([
      {
        space_id: teamId,
        user_id: null,
        day: today,
        prompts: 0,
        versions: 1,
        revisions: 1,
        conversations: 0,
      },
    ])
    await expectDaysMatchTheRows()
  })

  it('are rows of changes that a fold turns into one per space, person and day; older days one per person and day', async () => {
    const me = await user()
    const prompt = await createPromptAs(me, { title: 'Folded' })
    for (const body of ['b', 'c']) await edit(me, prompt, { body })
    const old = await createPromptAs(me, { title: 'Long ago' })
    await backdate('prompts', old.id, daysAgo(40))
    await backdate('prompt_versions', old.id, daysAgo(40))
    // A team prompt and a conversation of no team on the same old day: other spaces, same person.
    const teamId = (await createTeamAs(me)).id
    const shared = await createPromptAs(me, { title: 'Shared long ago', visibility: 'team', teamId })
    await backdate('prompts', shared.id, daysAgo(40))
    await backdate('prompt_versions', shared.id, daysAgo(40))
    const talk = await createConversation(me, { title: 'Talked long ago' })
    await backdate('conversations', talk.id, daysAgo(40))
    // Older than a streak looks back: dropped by the fold.
    const ancient = await createPromptAs(me, { title: 'Ancient' })
    await backdate('prompts', ancient.id, daysAgo(STREAK_LOOKBACK_DAYS + 5))
    await backdate('prompt_versions', ancient.id, daysAgo(STREAK_LOOKBACK_DAYS + 5))
    const rowsOfMine = async () =>
      (
        await queryRows<{ space_id: string; day: string }>(
          testApp.database.db,
          sql`SELECT space_id, to_char(day, 'YYYY-MM-DD') AS day FROM dashboard_days WHERE user_id = ${me.user!.id} ORDER BY day`,
        )
      ).map((row) => [row.space_id, row.day])
    const keepFrom = lastUtcDays(DASHBOARD_DAYS_KEPT)[0]!
    const peopleFrom = lastUtcDays(STREAK_LOOKBACK_DAYS)[0]!
    const recent = await keptDays(keepFrom)
    const board = await pulse(me)
    const streak = (await dashboardOf(me)).streak
    const [folded] = await queryRows<{ n: number }>(
      testApp.database.db,
      sql`SELECT dashboard_days_fold(${keepFrom}::date, ${peopleFrom}::date) AS n`,
    )
    expect(folded!.n).toBeGreaterThanOrEqual(10)
    // Today: one row in the personal space; 40 days ago: one for every space; the ancient day gone.
    const oldDay = daysAgo(40).slice(0, 10)
    expect(await rowsOfMine()).toEqual([
      [ALL_SPACES, oldDay],
      [PERSONAL_SPACE, lastUtcDays(1)[0]!],
    ])
    expect((await keptDays(oldDay)).find((row) => row.day === oldDay)).toMatchObject({
      prompts: 2,
      versions: 2,
      revisions: 0,
      conversations: 1,
    })
    expect(await keptDays(keepFrom)).toEqual(recent)
    expect(await pulse(me)).toEqual(board)
    expect(board).toEqual({ prompts: 1, versions: 3, conversations: 0 })
    expect((await dashboardOf(me)).streak).toBe(streak)
    // The recent days are exactly a count of every row.
    await testApp.database.db.execute(sql`SELECT dashboard_days_recount()`)
    expect(await keptDays(keepFrom)).toEqual(recent)
    // Every day a window reads is kept per space, and every day a streak reads per person.
    expect(keepFrom < lastUtcDays(PULSE_LONG_WINDOW_DAYS)[0]!).toBe(true)
  })

  // Two transactions open at once: PostgreSQL only (PGlite has one connection).
  it.runIf(process.env.TEST_DB === 'postgres')(
    'stay right when a prompt moves while a version of it is being written, in either order',
    async () => {
      const me = await user()
      await moveWhileAVersionIsWritten(testApp, me, async (teamId, moved) => {
        // Moved in, the version written meanwhile went along; moved out, the team counts nothing.
        expect(await pulse(me, teamId)).toMatchObject(
          moved === 'in' ? { prompts: 1, versions: 2 } : { prompts: 0, versions: 0 },
        )
        await expectDaysMatchTheRows()
      })
    },
  )
})
