import { type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import { dashboardOperations } from '../../../domain/api/dashboard.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { RankedPrompt } from '../../../domain/dashboard.ts'
import type { PromptDetail } from '../../../domain/prompts.ts'
import { queryRows } from '../../db/rows.ts'
import { TestClient } from '../../testing/client.ts'
import { interleaved } from '../../testing/interleaved.ts'
import { addMember, createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { appendMessage, createConversation } from '../conversations/test-fixtures.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

/**
 * "Most used" comes from the uses each prompt keeps (migration 0271): after every kind of write
 * they must equal a count of the attachments made again from scratch, and the dashboard must show
 * exactly what counting the attachments of the context's prompts shows, in the same order.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

const db = () => testApp.database.db

function user(): Promise<TestClient> {
  return TestClient.signedUp(testApp)
}

async function mostUsed(client: TestClient, teamId?: string): Promise<[string, number][]> {
  const res = await client.call(dashboardOperations.get, { query: { teamId } })
  expect(res.status).toBe(200)
  return res.body.mostUsed.map((row) => [row.title, row.count])
}

/**
 * What "most used" means, counted from the attachments themselves: the statement the dashboard ran
 * before the uses were kept (the context's prompts joined with every attachment).
 */
async function countedMostUsed(
  context: { userId: string } | { teamId: string },
): Promise<[string, number][]> {
  const scope: SQL =
    'teamId' in context
      ? sql`p.team_id = ${context.teamId} AND p.visibility = 'team'`
      : sql`p.owner_user_id = ${context.userId}`
  const rows = await queryRows<RankedPrompt>(
    db(),
    sql`SELECT p.id, p.title, count(*)::int AS count
      FROM prompts p JOIN conversation_message_prompts a ON a.prompt_id = p.id
      WHERE ${scope}
      GROUP BY p.id ORDER BY count DESC, p.updated_at DESC, p.id DESC LIMIT 5`,
  )
  return rows.map((row) => [row.title, row.count])
}

/** The dashboard shows what counting the attachments shows, for a person and for a team. */
async function expectAsCounted(client: TestClient, teamId?: string) {
  const counted = await countedMostUsed(teamId ? { teamId } : { userId: client.user!.id })
  expect(await mostUsed(client, teamId)).toEqual(counted)
  return counted
}

type UseRow = { space_id: string; user_id: string; prompt_id: string; uses: number }

/** The kept uses, added up per space, person and prompt (those that count anything), in one order. */
async function keptUses(): Promise<UseRow[]> {
  const rows = await queryRows<UseRow>(
    db(),
    sql`SELECT space_id, user_id, prompt_id, sum(uses)::int AS uses FROM dashboard_uses
      GROUP BY 1, 2, 3 HAVING sum(uses) <> 0 ORDER BY 1, 2, 3`,
  )
  return rows.map((row) => ({ ...row }))
}

/** The kept uses equal the uses of the attachments, counted again from scratch. */
async function expectUsesMatchTheRows() {
  const kept = await keptUses()
  await db().execute(sql`SELECT dashboard_uses_recount()`)
  expect(kept).toEqual(await keptUses())
}

async function edit(client: TestClient, prompt: PromptDetail, change: Record<string, unknown>) {
  const res = await client.call(promptOperations.update, { params: { id: prompt.id }, body: change })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

/** A message in `conversationId` with these prompts attached ("latest" each). */
async function attach(client: TestClient, conversationId: string, ...prompts: PromptDetail[]) {
  return appendMessage(client, conversationId, {
    attachments: prompts.map((prompt) => ({ promptId: prompt.id })),
  })
}

/** Sets when a prompt last changed: the order of prompts used equally often. */
async function changedAt(prompt: PromptDetail, at: string) {
  await db().execute(sql`UPDATE prompts SET updated_at = ${at}::timestamptz WHERE id = ${prompt.id}`)
}

describe('most used: the uses kept by the writes', () => {
  it('follow attachments added and removed, messages and conversations deleted, prompts moved, given away and deleted', async () => {
    const admin = await user()
    const member = await user()
    const teamId = (await createTeamAs(admin, 'Uses')).id
    await addMember(testApp, admin, teamId, member)
    const mine = await createPromptAs(member, { title: 'Mine' })
    const shared = await createPromptAs(member, { title: 'Shared', visibility: 'team', teamId })
    const theirs = await createPromptAs(admin, { title: 'Theirs', visibility: 'team', teamId })

    // Attached with messages, and to a message afterwards (a named version: another attachment).
    const chat = await createConversation(member, { title: 'Personal chat' })
    const first = await attach(member, chat.id, mine, shared)
    await attach(member, chat.id, shared, theirs)
    const [version1] = await queryRows<{ id: string }>(
      db(),
      sql`SELECT id FROM prompt_versions WHERE prompt_id = ${shared.id} AND version_number = 1`,
    )
    const added = await member.call(conversationOperations.attach, {
      params: { id: first.id },
      body: { promptId: shared.id, promptVersionId: version1!.id },
    })
    expect(added.status).toBe(201)
    expect(await mostUsed(member)).toEqual([
      ['Shared', 3],
      ['Mine', 1],
    ])
    expect(await mostUsed(admin, teamId)).toEqual([
      ['Shared', 3],
      ['Theirs', 1],
    ])
    // The admin's own prompt counts for the admin, whoever attached it.
    expect(await mostUsed(admin)).toEqual([['Theirs', 1]])
    await expectUsesMatchTheRows()

    // Detached; a message deleted with its attachments; a team conversation deleted with its own.
    expect(
      (
        await member.call(conversationOperations.detach, {
          params: { id: first.id, attachmentId: added.body.id },
        })
      ).status,
    ).toBe(204)
    expect((await mostUsed(member))[0]).toEqual(['Shared', 2])
    await expectUsesMatchTheRows()
    expect(
      (await member.call(conversationOperations.deleteMessage, { params: { id: first.id } })).status,
    ).toBe(204)
    expect(await mostUsed(member)).toEqual([['Shared', 1]])
    const teamChat = await createConversation(admin, { title: 'Team chat', teamId })
    await attach(admin, teamChat.id, theirs, shared)
    await attach(admin, teamChat.id, theirs)
    expect(await mostUsed(member, teamId)).toEqual([
      ['Theirs', 3],
      ['Shared', 2],
    ])
    expect((await admin.call(conversationOperations.delete, { params: { id: teamChat.id } })).status).toBe(
      204,
    )
    expect((await expectAsCounted(member, teamId)).sort()).toEqual([
      ['Shared', 1],
      ['Theirs', 1],
    ])
    await expectUsesMatchTheRows()

    // Moved into the team and out again: the team counts its uses, then no longer; its owner always.
    await attach(member, chat.id, mine)
    await attach(member, chat.id, mine)
    await edit(member, mine, { visibility: 'team', teamId })
    expect((await mostUsed(admin, teamId))[0]).toEqual(['Mine', 2])
    await expectUsesMatchTheRows()
    await edit(member, mine, { visibility: 'private' })
    expect(await mostUsed(admin, teamId)).not.toContainEqual(['Mine', 2])
    expect((await mostUsed(member))[0]).toEqual(['Mine', 2])
    await expectUsesMatchTheRows()

    // Given to another owner: its uses go with it.
    await db().execute(sql`UPDATE prompts SET owner_user_id = ${admin.user!.id} WHERE id = ${mine.id}`)
    expect(await mostUsed(member)).toEqual([['Shared', 1]])
    expect((await mostUsed(admin))[0]).toEqual(['Mine', 2])
    await expectUsesMatchTheRows()

    // A version deleted takes the attachments of that version; a prompt deleted takes all of its own.
    const [version] = await queryRows<{ id: string }>(
      db(),
      sql`SELECT id FROM prompt_versions WHERE prompt_id = ${theirs.id} AND version_number = 1`,
    )
    await member.call(conversationOperations.attach, {
      params: { id: (await attach(member, chat.id, shared)).id },
      body: { promptId: theirs.id, promptVersionId: version!.id },
    })
    expect((await expectAsCounted(member, teamId)).sort()).toEqual([
      ['Shared', 2],
      ['Theirs', 2],
    ])
    await edit(admin, theirs, { body: 'a second version' })
    await db().execute(sql`DELETE FROM prompt_versions WHERE id = ${version!.id}`)
    expect(await mostUsed(member, teamId)).toEqual([
      ['Shared', 2],
      ['Theirs', 1],
    ])
    await expectUsesMatchTheRows()
    expect((await member.call(promptOperations.delete, { params: { id: shared.id } })).status).toBe(204)
    expect(await mostUsed(member, teamId)).toEqual([['Theirs', 1]])
    expect(await mostUsed(member)).toEqual([])
    await expectUsesMatchTheRows()

    // The admin's account deleted by the database's cascade: their prompts and their uses go.
    await db().execute(sql`DELETE FROM users WHERE id = ${admin.user!.id}`)
    expect(await keptUses()).toEqual([])
    await expectUsesMatchTheRows()
  })

  it("count only the context's prompts: not another person's, another team's or a private one in the team", async () => {
    const me = await user()
    const colleague = await user()
    const stranger = await user()
    const teamId = (await createTeamAs(me, 'Ours')).id
    await addMember(testApp, me, teamId, colleague)
    const otherTeamId = (await createTeamAs(stranger, 'Theirs')).id
    await addMember(testApp, stranger, otherTeamId, me)

    const personal = await createPromptAs(me, { title: 'My personal' })
    const privateInTeam = await createPromptAs(me, { title: 'My private one in the team', teamId })
    const mineShared = await createPromptAs(me, { title: 'Mine, shared', visibility: 'team', teamId })
    const colleagues = await createPromptAs(colleague, {
      title: 'The colleague’s',
      visibility: 'team',
      teamId,
    })
    const otherTeams = await createPromptAs(stranger, {
      title: 'The other team’s',
      visibility: 'team',
      teamId: otherTeamId,
    })
    const mineInOtherTeam = await createPromptAs(me, {
      title: 'Mine, in the other team',
      visibility: 'team',
      teamId: otherTeamId,
    })
    const strangers = await createPromptAs(stranger, { title: 'The stranger’s' })

    // Everyone else's prompts are used far more, also in my conversations and in the team's.
    const mine = await createConversation(me, { title: 'Mine' })
    const ours = await createConversation(colleague, { title: 'Ours', teamId })
    const theirs = await createConversation(stranger, { title: 'Theirs', teamId: otherTeamId })
    const strangersOwn = await createConversation(stranger, { title: 'The stranger’s own' })
    await attach(me, mine.id, personal, privateInTeam, mineShared, mineInOtherTeam)
    for (let i = 0; i < 4; i++) {
      await attach(me, mine.id, colleagues, otherTeams)
      await attach(colleague, ours.id, colleagues)
      await attach(stranger, theirs.id, otherTeams, mineInOtherTeam)
      await attach(stranger, strangersOwn.id, strangers)
    }
    await attach(colleague, ours.id, mineShared)

    // Personal: the prompts I own, in any space, whoever attached them where.
    expect((await expectAsCounted(me)).sort()).toEqual(
      [
        ['Mine, in the other team', 5],
        ['Mine, shared', 2],
        ['My personal', 1],
        ['My private one in the team', 1],
      ].sort(),
    )
    // A team: its shared prompts only, whoever owns them.
    expect(await expectAsCounted(colleague, teamId)).toEqual([
      ['The colleague’s', 8],
      ['Mine, shared', 2],
    ])
    expect(await expectAsCounted(me, otherTeamId)).toEqual([
      ['The other team’s', 8],
      ['Mine, in the other team', 5],
    ])
    expect(await expectAsCounted(stranger)).toEqual([
      ['The other team’s', 8],
      ['The stranger’s', 4],
    ])
    await expectUsesMatchTheRows()
  })

  it('rank by uses, then the most recently changed, then the id, as counting did; ties at the cut included', async () => {
    const me = await user()
    const teamId = (await createTeamAs(me, 'Ranks')).id
    const ranked = (title: string) => createPromptAs(me, { title, visibility: 'team', teamId })
    const a = await ranked('A')
    const b = await ranked('B')
    const c = await ranked('C')
    const d = await ranked('D')
    const e = await ranked('E')
    const f = await ranked('F')
    const g = await ranked('G')
    await ranked('H')
    const chat = await createConversation(me, { title: 'Ranked', teamId })
    // A 3 uses; B, C, D, E and F 2 each (one too many for the 4 places left); G 1; H none.
    await attach(me, chat.id, a, b, c, d, e, f, g)
    await attach(me, chat.id, a, b, c, d, e, f)
    await attach(me, chat.id, a)
    // Of the prompts used twice, the most recently changed come first; C and E changed at the same
    // moment, so the greater id comes first between them; B changed longest ago and is cut.
    await changedAt(b, '2026-01-01T00:00:00Z')
    await changedAt(c, '2026-03-01T00:00:00Z')
    await changedAt(e, '2026-03-01T00:00:00Z')
    await changedAt(d, '2026-02-01T00:00:00Z')
    await changedAt(f, '2026-04-01T00:00:00Z')
    const [later, earlier] = c.id > e.id ? [c, e] : [e, c]
    const expected = [
      ['A', 3],
      ['F', 2],
      [later.title, 2],
      [earlier.title, 2],
      ['D', 2],
    ]
    expect(await expectAsCounted(me, teamId)).toEqual(expected)
    expect(await expectAsCounted(me)).toEqual(expected)
    // Fewer than five used: all of them, nothing unused.
    await db().execute(
      sql`DELETE FROM conversation_message_prompts WHERE prompt_id IN (${b.id}, ${c.id}, ${d.id}, ${e.id})`,
    )
    expect(await expectAsCounted(me, teamId)).toEqual([
      ['A', 3],
      ['F', 2],
      ['G', 1],
    ])
    expect(await mostUsed(me, teamId)).not.toContainEqual(['H', 0])
    await expectUsesMatchTheRows()
  })

  it('are rows of changes that a fold turns into one per prompt, and none for a prompt no longer used', async () => {
    const me = await user()
    const used = await createPromptAs(me, { title: 'Used' })
    const dropped = await createPromptAs(me, { title: 'Dropped' })
    const chat = await createConversation(me, { title: 'Folded' })
    for (let i = 0; i < 3; i++) await attach(me, chat.id, used, dropped)
    await db().execute(sql`DELETE FROM conversation_message_prompts WHERE prompt_id = ${dropped.id}`)
    const rowsOf = async (promptId: string) =>
      (
        await queryRows<{ uses: number }>(
          db(),
          sql`SELECT uses FROM dashboard_uses WHERE prompt_id = ${promptId} ORDER BY id`,
        )
      ).map((row) => row.uses)
    expect(await rowsOf(used.id)).toEqual([1, 1, 1])
    expect(await rowsOf(dropped.id)).toEqual([1, 1, 1, -3])
    const before = await mostUsed(me)
    expect(before).toEqual([['Used', 3]])
    const [folded] = await queryRows<{ n: number }>(db(), sql`SELECT dashboard_uses_fold() AS n`)
    expect(folded!.n).toBeGreaterThanOrEqual(6)
    expect(await rowsOf(used.id)).toEqual([3])
    expect(await rowsOf(dropped.id)).toEqual([])
    expect(await mostUsed(me)).toEqual(before)
    await expectUsesMatchTheRows()
  })

  // PGlite has one connection: no two transactions are ever open at once there.
  it.runIf(process.env.TEST_DB === 'postgres')(
    'stay right when a prompt moves while an attachment to it is being added, in either order',
    async () => {
      const me = await user()
      const teamId = (await createTeamAs(me, 'Race')).id
      const prompt = await createPromptAs(me, { title: 'Raced' })
      const chat = await createConversation(me, { title: 'Race' })
      const [one, two] = [await appendMessage(me, chat.id), await appendMessage(me, chat.id)]
      const attachTo = (messageId: string) =>
        sql`INSERT INTO conversation_message_prompts (message_id, prompt_id) VALUES (${messageId}, ${prompt.id})`

      // Attached first (not committed yet), then moved into the team: the move counts it.
      await interleaved(
        db(),
        attachTo(one.id),
        sql`UPDATE prompts SET visibility = 'team', team_id = ${teamId} WHERE id = ${prompt.id}`,
      )
      expect(await mostUsed(me, teamId)).toEqual([['Raced', 1]])
      await expectUsesMatchTheRows()

      // Moved out of the team first (not committed yet), then attached: counted where it went.
      await interleaved(
        db(),
        sql`UPDATE prompts SET visibility = 'private', team_id = NULL WHERE id = ${prompt.id}`,
        attachTo(two.id),
      )
      expect(await mostUsed(me, teamId)).toEqual([])
      expect(await mostUsed(me)).toEqual([['Raced', 2]])
      await expectUsesMatchTheRows()
    },
  )
})
