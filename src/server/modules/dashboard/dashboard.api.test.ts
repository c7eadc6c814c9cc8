import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dashboardOperations } from '../../../domain/api/dashboard.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import { type Dashboard, lastUtcDays, STREAK_LOOKBACK_DAYS, utcDay } from '../../../domain/dashboard.ts'
import type { PromptDetail } from '../../../domain/prompts.ts'
import { DASHBOARD_DAYS_KEPT } from '../../jobs/prune.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { addMember, createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { appendMessage, createConversation } from '../conversations/test-fixtures.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

/** `GET /api/v1/dashboard`: one answer per context, widget by widget. */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

const DAY_MS = 86_400_000
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString()

function user(): Promise<TestClient> {
  return TestClient.signedUp(testApp)
}

async function dashboard(client: TestClient, teamId?: string): Promise<Dashboard> {
  const res = await client.call(dashboardOperations.get, { query: { teamId } })
  expect(res.status).toBe(200)
  return res.body
}

/** Moves a row's creation (and last change) into the past, as if it had been made then. */
async function backdate(table: 'prompts' | 'conversations' | 'prompt_versions', id: string, at: string) {
  const updated = table === 'prompt_versions' ? sql`` : sql`, updated_at = ${at}::timestamptz`
  await testApp.database.db.execute(
    sql`UPDATE ${sql.identifier(table)} SET created_at = ${at}::timestamptz ${updated} WHERE id = ${id}`,
  )
}

async function editBody(client: TestClient, prompt: PromptDetail, body: string) {
  const res = await client.call(promptOperations.update, { params: { id: prompt.id }, body: { body } })
  expect(res.status).toBe(200)
  return res.body
}

describe('personal context', () => {
  it('starts empty: nothing to continue, onboarding at 0%, no streak, a quiet week', async () => {
    const board = await dashboard(await user())
    expect(board.teamId).toBeNull()
    expect(board.continue).toEqual([])
    expect(board.checklist).toEqual({
      items: [
        { key: 'first_prompt', done: false },
        { key: 'attach_prompt', done: false },
        { key: 'join_team', done: false },
        { key: 'start_conversation', done: false },
      ],
      percent: 0,
    })
    expect(board.progress.percent).toBe(0)
    expect(board.streak).toBe(0)
    expect(board.pulse.current).toEqual({ prompts: 0, versions: 0, conversations: 0 })
    expect(board.weekly).toHaveLength(7)
    expect(board.weekly.at(-1)).toEqual({ day: utcDay(new Date()), count: 0 })
    expect(board.milestone).toEqual({ current: 0, goal: 5, windowDays: 7, reached: false })
    expect(board.mostUsed).toEqual([])
    expect(board.mostRevised).toEqual([])
  })

  it('Continue: the 3 most recent of my prompts and conversations, newest first', async () => {
    const me = await user()
    const first = await createPromptAs(me, { title: 'First' })
    const conversation = await createConversation(me, { title: 'Chat' })
    const second = await createPromptAs(me, { title: 'Second' })
    await createPromptAs(await user(), { title: 'Somebody else’s' })
    await backdate('prompts', first.id, daysAgo(3))
    await backdate('conversations', conversation.id, daysAgo(2))
    const third = await createConversation(me, { title: 'Latest chat' })
    const board = await dashboard(me)
    expect(board.continue.map((item) => [item.kind, item.id])).toEqual([
      ['conversation', third.id],
      ['prompt', second.id],
      ['conversation', conversation.id],
    ])
  })

  it('checklist and progress follow what I did; percent = done / 4 and done / 5', async () => {
    const me = await user()
    const prompt = await createPromptAs(me, { title: 'Tagged', tags: ['x'] })
    let board = await dashboard(me)
    expect(board.checklist.percent).toBe(25)
    expect(board.progress.items.filter((item) => item.done).map((item) => item.key)).toEqual([
      'firstPrompt',
      'tagsAdded',
    ])

    const edited = await editBody(me, prompt, 'A second body')
    const conversation = await createConversation(me, { title: 'Chat' })
    await appendMessage(me, conversation.id, { attachments: [{ promptId: prompt.id }] })
    const team = await createTeamAs(me, 'Mine')
    await createPromptAs(me, { title: 'Shared', visibility: 'team', teamId: team.id })
    const firstVersion = (
      await me.call(promptOperations.versions, { params: { id: prompt.id } })
    ).body.items.find((version) => version.versionNumber === 1)!
    expect(edited.currentVersionNumber).toBe(2)
    const reset = await me.call(promptOperations.setCurrentVersion, {
      params: { id: prompt.id },
      body: { versionId: firstVersion.id },
    })
    expect(reset.status).toBe(200)

    board = await dashboard(me)
    expect(board.checklist.percent).toBe(100)
    expect(board.checklist.items.every((item) => item.done)).toBe(true)
    expect(board.progress).toEqual({
      items: [
        { key: 'firstPrompt', done: true },
        { key: 'tagsAdded', done: true },
        { key: 'versionCreated', done: true },
        { key: 'currentSet', done: true },
        { key: 'teamVisible', done: true },
      ],
      percent: 100,
    })
  })

  it('streak: consecutive UTC days from today, or from yesterday when today is still empty', async () => {
    const me = await user()
    const yesterday = await createPromptAs(me, { title: 'Yesterday' })
    const before = await createConversation(me, { title: 'Day before' })
    const gap = await createPromptAs(me, { title: 'After a gap' })
    const dayStart = Date.parse(`${utcDay(new Date())}T00:00:00Z`)
    const onDay = (daysBack: number) => new Date(dayStart - daysBack * DAY_MS + 3_600_000).toISOString()
    await testApp.database.db.execute(
      sql`UPDATE prompt_versions SET created_at = ${onDay(1)}::timestamptz WHERE prompt_id = ${yesterday.id}`,
    )
    await backdate('prompts', yesterday.id, onDay(1))
    await backdate('conversations', before.id, onDay(2))
    await testApp.database.db.execute(
      sql`UPDATE prompt_versions SET created_at = ${onDay(4)}::timestamptz WHERE prompt_id = ${gap.id}`,
    )
    await backdate('prompts', gap.id, onDay(4))
    expect((await dashboard(me)).streak).toBe(2)

    await createConversation(me, { title: 'Today' })
    expect((await dashboard(me)).streak).toBe(3)
  })

  it('streak: a run longer than the windows the per-day counts keep per space', async () => {
    const me = await user()
    const dayStart = Date.parse(`${utcDay(new Date())}T00:00:00Z`)
    const onDay = (daysBack: number) => new Date(dayStart - daysBack * DAY_MS + 3_600_000).toISOString()
    // Active on each of the last 20 days (yesterday back), then a gap, then one more day.
    for (const daysBack of [...Array.from({ length: 20 }, (_, i) => i + 1), 22]) {
      const prompt = await createPromptAs(me, { title: `Day ${daysBack}` })
      await testApp.database.db.execute(
        sql`UPDATE prompt_versions SET created_at = ${onDay(daysBack)}::timestamptz WHERE prompt_id = ${prompt.id}`,
      )
      await backdate('prompts', prompt.id, onDay(daysBack))
    }
    // The hourly fold, as in production: the days no window reaches are kept per person only.
    await testApp.database.db.execute(
      sql`SELECT dashboard_days_fold(${lastUtcDays(DASHBOARD_DAYS_KEPT)[0]!}::date, ${lastUtcDays(STREAK_LOOKBACK_DAYS)[0]!}::date)`,
    )
    expect((await dashboard(me)).streak).toBe(20)
    await createConversation(me, { title: 'Today' })
    expect((await dashboard(me)).streak).toBe(21)
  })

  it('pulse: this week and the week before (14-day minus 7-day figures), with the change', async () => {
    const me = await user()
    const old = await createPromptAs(me, { title: 'Ten days ago' })
    await backdate('prompts', old.id, daysAgo(10))
    await testApp.database.db.execute(
      sql`UPDATE prompt_versions SET created_at = ${daysAgo(10)}::timestamptz WHERE prompt_id = ${old.id}`,
    )
    const ancient = await createConversation(me, { title: 'A month ago' })
    await backdate('conversations', ancient.id, daysAgo(30))
    // Older than both windows: in neither.
    const older = await createPromptAs(me, { title: 'Twenty days ago' })
    await backdate('prompts', older.id, daysAgo(20))
    await testApp.database.db.execute(
      sql`UPDATE prompt_versions SET created_at = ${daysAgo(20)}::timestamptz WHERE prompt_id = ${older.id}`,
    )
    const fresh = await createPromptAs(me, { title: 'Now' })
    await editBody(me, fresh, 'Second version')
    await editBody(me, fresh, 'Third version')
    await createConversation(me, { title: 'Now too' })
    const board = await dashboard(me)
    expect(board.pulse).toEqual({
      windowDays: 7,
      current: { prompts: 1, versions: 3, conversations: 1 },
      previous: { prompts: 1, versions: 1, conversations: 0 },
      change: { prompts: 0, versions: 2, conversations: 1 },
    })
    // The new prompt, its two later versions (version 1 is the prompt) and the conversation.
    expect(board.weekly.at(-1)!.count).toBe(4)
    expect(board.weekly.slice(0, 6).every((day) => day.count === 0)).toBe(true)
  })

  it('Performance and Top Performers: my prompts by attachments and by versions', async () => {
    const me = await user()
    const used = await createPromptAs(me, { title: 'Used twice' })
    const once = await createPromptAs(me, { title: 'Used once' })
    await createPromptAs(me, { title: 'Never used' })
    const conversation = await createConversation(me, { title: 'Chat' })
    await appendMessage(me, conversation.id, { attachments: [{ promptId: used.id }, { promptId: once.id }] })
    await appendMessage(me, conversation.id, { attachments: [{ promptId: used.id }] })
    await editBody(me, once, 'v2')
    await editBody(me, once, 'v3')
    await editBody(me, used, 'v2')
    const board = await dashboard(me)
    expect(board.mostUsed.map((row) => [row.title, row.count])).toEqual([
      ['Used twice', 2],
      ['Used once', 1],
    ])
    expect(board.mostRevised.map((row) => [row.title, row.count])).toEqual([
      ['Used once', 3],
      ['Used twice', 2],
    ])
  })
})

describe('team context', () => {
  async function team() {
    const admin = await user()
    const member = await user()
    const stranger = await user()
    const created = await createTeamAs(admin, 'Crew')
    await addMember(testApp, admin, created.id, member)
    return { admin, member, stranger, teamId: created.id }
  }

  it("covers the team's shared work only, for every member", async () => {
    const { admin, member, teamId } = await team()
    const shared = await createPromptAs(admin, { title: 'Shared', visibility: 'team', teamId })
    await createPromptAs(admin, { title: 'Private in the team', visibility: 'private', teamId })
    await createPromptAs(member, { title: 'Personal' })
    const chat = await createConversation(member, { title: 'Team chat', teamId })
    await appendMessage(member, chat.id, { attachments: [{ promptId: shared.id }] })
    const board = await dashboard(member, teamId)
    expect(board.teamId).toBe(teamId)
    expect(board.continue.map((item) => item.title)).toEqual(['Team chat', 'Shared'])
    expect(board.pulse.current).toEqual({ prompts: 1, versions: 1, conversations: 1 })
    expect(board.mostUsed.map((row) => row.title)).toEqual(['Shared'])
    expect(board.milestones).toMatchObject({ totalPrompts: 1, totalVersions: 1 })
    expect(await dashboard(admin, teamId)).toEqual(
      expect.objectContaining({ continue: board.continue, pulse: board.pulse }),
    )
    // The caller's own onboarding and streak are the same in every context.
    const personal = await dashboard(member)
    expect(board.checklist).toEqual(personal.checklist)
    expect(board.streak).toBe(personal.streak)
  })

  it('team milestone and milestones: 5 prompts this week reach the goal and the prompts5 flag', async () => {
    const { admin, member, teamId } = await team()
    for (const title of ['One', 'Two', 'Three', 'Four'])
      await createPromptAs(admin, { title, visibility: 'team', teamId })
    let board = await dashboard(member, teamId)
    expect(board.milestone).toEqual({ current: 4, goal: 5, windowDays: 7, reached: false })
    expect(board.milestones.hit.prompts5).toBe(false)
    const fifth = await createPromptAs(member, { title: 'Five', visibility: 'team', teamId })
    for (const body of ['b', 'c', 'd', 'e', 'f']) await editBody(member, fifth, body)
    board = await dashboard(member, teamId)
    expect(board.milestone.reached).toBe(true)
    expect(board.milestones).toEqual({
      totalPrompts: 5,
      totalVersions: 10,
      hit: {
        prompts5: true,
        prompts10: false,
        prompts25: false,
        versions10: true,
        versions25: false,
        versions50: false,
      },
    })
  })

  it('answers 404 for a team the caller is not in, or one that does not exist, like the lists', async () => {
    const { stranger, teamId } = await team()
    const res = await stranger.call(dashboardOperations.get, { query: { teamId } })
    expect(res.status).toBe(404)
    expect(errorOf(res)).toMatchObject({ code: 'not_found', message: 'Team not found or access denied' })
    expect(
      (await stranger.call(dashboardOperations.get, { query: { teamId: crypto.randomUUID() } })).status,
    ).toBe(404)
  })

  it('a removed member loses the team dashboard at once', async () => {
    const { admin, member, teamId } = await team()
    expect((await member.call(dashboardOperations.get, { query: { teamId } })).status).toBe(200)
    expect(
      (await admin.call(teamOperations.removeMember, { params: { teamId, userId: member.user!.id } })).status,
    ).toBe(204)
    expect((await member.call(dashboardOperations.get, { query: { teamId } })).status).toBe(404)
  })
})

describe('access', () => {
  it('refuses anonymous callers and malformed team ids', async () => {
    expect((await new TestClient(testApp).call(dashboardOperations.get, {})).status).toBe(401)
    const res = await (await user()).call(dashboardOperations.get, { query: { teamId: 'nope' } })
    expect(res.status).toBe(400)
    expect(errorOf(res).code).toBe('validation')
  })
})
