import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdminTeam } from '../../../domain/admin.ts'
import { adminOperations } from '../../../domain/api/admin.ts'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import { planOperations } from '../../../domain/api/plans.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import { SEARCH_WINDOW_PER_ROW } from '../../db/newest-first.ts'
import { queryRows } from '../../db/rows.ts'
import { errorOf, TestClient, uniqueEmail } from '../../testing/client.ts'
import { addMember, createTeamAs, inviteAs } from '../../testing/teams.ts'
import { createTestApp } from '../../testing/test-app.ts'

/** The global admin's list of every team (`GET /api/v1/admin/teams`), and acting in any team. */
const testApp = await createTestApp({}, {})
afterAll(() => testApp.close())

let globalAdmin: TestClient
let owner: TestClient
let member: TestClient
let coAdmin: TestClient
let teamId: string

beforeAll(async () => {
  globalAdmin = new TestClient(testApp)
  await globalAdmin.signUp(uniqueEmail('first')) // the installation's first account: global admin
  owner = new TestClient(testApp)
  await owner.signUp(uniqueEmail('owner'))
  member = new TestClient(testApp)
  await member.signUp(uniqueEmail('member'))
  coAdmin = new TestClient(testApp)
  await coAdmin.signUp(uniqueEmail('coadmin'))
  teamId = (await createTeamAs(owner, 'Counted Crew')).id
  await addMember(testApp, owner, teamId, member)
  await addMember(testApp, owner, teamId, coAdmin, 'admin')
  // Two shared prompts and one private one (not the team's); two team conversations and a personal one.
  for (const title of ['Shared one', 'Shared two']) {
    await owner.call(promptOperations.create, { body: { title, body: 'Body', visibility: 'team', teamId } })
  }
  await member.call(promptOperations.create, { body: { title: 'Mine', body: 'Body', visibility: 'private' } })
  for (const title of ['Team talk', 'Team talk 2']) {
    await member.call(conversationOperations.create, { body: { title, teamId, tags: [] } })
  }
  await owner.call(conversationOperations.create, { body: { title: 'Personal', tags: [] } })
})

const listTeams = (query: { search?: string; limit?: number; cursor?: string } = {}) =>
  globalAdmin.call(adminOperations.teams, { query })

describe('the list', () => {
  it('shows each team with members, admins, plan, prompts, conversations and creation date, and the total', async () => {
    const before = new Date().toISOString()
    const newest = await createTeamAs(member, 'Newest team')
    const res = await listTeams()
    expect(res.status).toBe(200)
    const [first, second] = res.body.items
    expect(first).toMatchObject({ id: newest.id, name: 'Newest team', memberCount: 1, adminCount: 1 })
    expect(first!.createdAt >= before.slice(0, 19)).toBe(true)
    expect(second).toEqual<AdminTeam>({
      id: teamId,
      name: 'Counted Crew',
      createdAt: expect.any(String),
      memberCount: 3,
      adminCount: 2,
      admins: [
        { id: owner.user!.id, email: owner.user!.email, name: expect.any(String) },
        { id: coAdmin.user!.id, email: coAdmin.user!.email, name: expect.any(String) },
      ],
      promptCount: 2,
      conversationCount: 2,
      plan: { state: 'unlimited', plan: null },
    })
    expect(res.body.counts.teams).toBe(2)
    expect(res.body.nextCursor).toBeNull()
  })

  it('names at most three admins and counts them all', async () => {
    const id = (await createTeamAs(globalAdmin, 'Many admins')).id
    const admins = [owner, member, coAdmin]
    for (const admin of admins) await addMember(testApp, globalAdmin, id, admin, 'admin')
    const row = (await listTeams({ search: 'many admins' })).body.items[0]!
    expect(row.adminCount).toBe(4)
    expect(row.admins.map((admin) => admin.id)).toEqual([
      globalAdmin.user!.id,
      owner.user!.id,
      member.user!.id,
    ])
  })

  it('searches over the name, case-insensitively, with % and _ taken literally', async () => {
    const found = await listTeams({ search: 'COUNTED c' })
    expect(found.body.items.map((team) => team.id)).toEqual([teamId])
    expect(found.body.counts.teams).toBeGreaterThanOrEqual(2)
    expect((await listTeams({ search: '%' })).body.items).toEqual([])
    expect((await listTeams({ search: '_' })).body.items).toEqual([])
  })

  it('refuses a malformed cursor and an overlong search with 400', async () => {
    const cursor = await globalAdmin.call(adminOperations.teams, { query: { cursor: 'nonsense' } })
    expect(cursor.status).toBe(400)
    expect(errorOf(cursor).message).toBe('Invalid cursor format')
    const long = await globalAdmin.call(adminOperations.teams, { query: { search: 'x'.repeat(101) } })
    expect(long.status).toBe(400)
  })

  it('refuses team admins and members with 403', async () => {
    for (const client of [owner, member]) {
      const res = await client.call(adminOperations.teams, {})
      expect(res.status).toBe(403)
      expect(errorOf(res).message).toBe('Global admin access required')
    }
  })

  it('keeps the total equal to the teams through creations and deletions (triggers on teams)', async () => {
    const total = async () => (await listTeams()).body.counts.teams
    const [counted] = await queryRows<{ count: number | string }>(
      testApp.database.db,
      sql`SELECT count(*) AS count FROM teams`,
    )
    const before = await total()
    expect(before).toBe(Number(counted!.count))
    const made = await createTeamAs(owner, 'Short-lived')
    expect(await total()).toBe(before + 1)
    await testApp.database.db.execute(sql`DELETE FROM teams WHERE id = ${made.id}`)
    expect(await total()).toBe(before)
  })

  it('shows the plan of each team with plans on', async () => {
    const plansApp = await createTestApp({ plansEnabled: true })
    try {
      const admin = new TestClient(plansApp)
      await admin.signUp()
      const other = new TestClient(plansApp)
      await other.signUp()
      const id = (await createTeamAs(other, 'Planned')).id
      const plan = async () => (await admin.call(adminOperations.teams, {})).body.items[0]!.plan
      expect(await plan()).toEqual({ state: 'trial', plan: 'trial' })
      expect(
        (
          await admin.call(planOperations.adminSetPlan, {
            body: { context: 'team', subjectId: id, plan: 'team' },
          })
        ).status,
      ).toBe(200)
      expect(await plan()).toEqual({ state: 'active', plan: 'team' })
    } finally {
      await plansApp.close()
    }
  })
})

describe('a global admin acts in any team as its admin', () => {
  it('renames, invites and changes roles in a team they are not in, each audited as theirs', async () => {
    const id = (await createTeamAs(owner, 'Before rename')).id
    const detail = await globalAdmin.call(teamOperations.get, { params: { teamId: id } })
    expect(detail.body.role).toBeNull()
    expect(detail.body.access).toMatchObject({
      manage_team: true,
      invite_members: true,
      remove_members: true,
    })
    expect(
      (
        await globalAdmin.call(teamOperations.rename, {
          params: { teamId: id },
          body: { name: 'After rename' },
        })
      ).status,
    ).toBe(200)
    await inviteAs(globalAdmin, id, uniqueEmail('invited'))
    await addMember(testApp, owner, id, member)
    expect(
      (
        await globalAdmin.call(teamOperations.changeRole, {
          params: { teamId: id, userId: member.user!.id },
          body: { role: 'admin' },
        })
      ).status,
    ).toBe(200)
    const entries = await queryRows<{ action: string; actor_user_id: string; actor_email: string }>(
      testApp.database.db,
      sql`SELECT action, actor_user_id, actor_email FROM audit_log
          WHERE team_id = ${id} AND actor_user_id <> ${owner.user!.id} AND action <> 'member.joined'
          ORDER BY created_at, id`,
    )
    expect(entries.map((entry) => entry.action)).toEqual([
      'team.renamed',
      'member.invited',
      'member.role_changed',
    ])
    for (const entry of entries) {
      expect(entry).toMatchObject({
        actor_user_id: globalAdmin.user!.id,
        actor_email: globalAdmin.user!.email,
      })
    }
  })
})

describe('paging and search at size: the newest teams first, the trigram index beyond them', () => {
  // 400 teams older than every other of this file, two to each created_at. `bulk` names every
  // other one; `rare` three, two of them beyond the window of a page of 2 (300 teams).
  const marker = Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, '0')
  beforeAll(async () => {
    expect(SEARCH_WINDOW_PER_ROW * 3).toBe(300)
    await testApp.database.db.execute(sql`
      INSERT INTO teams (id, name, created_at, updated_at)
      SELECT (${marker} || '00-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid,
             'Window ' || i
               || CASE WHEN i % 2 = 0 THEN ' Bulk-' || ${marker} ELSE '' END
               || CASE WHEN i IN (3, 350, 399) THEN ' RARE-' || ${marker} ELSE '' END,
             timestamptz '2001-01-01' - (i / 2) * interval '1 second',
             timestamptz '2001-01-01' - (i / 2) * interval '1 second'
      FROM generate_series(0, 399) i`)
  })

  async function allMatches(word: string): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      testApp.database.db,
      sql`SELECT id FROM teams WHERE lower(name) LIKE ${`%${word}-${marker}%`} ORDER BY created_at DESC, id DESC`,
    )
    return rows.map((row) => row.id)
  }

  async function pages(search: string, limit: number): Promise<string[][]> {
    const result: string[][] = []
    let cursor: string | null = null
    do {
      expect(result.length).toBeLessThan(500)
      const res = await listTeams({ limit, search, cursor: cursor ?? undefined })
      expect(res.status).toBe(200)
      result.push(res.body.items.map((item) => item.id))
      cursor = res.body.nextCursor
    } while (cursor)
    return result
  }

  it('pages through every team exactly once, newest first', async () => {
    const all = await queryRows<{ id: string }>(
      testApp.database.db,
      sql`SELECT id FROM teams ORDER BY created_at DESC, id DESC`,
    )
    const seen = await pages('', 50)
    expect(seen.flat()).toEqual(all.map((row) => row.id))
    expect(seen.slice(0, -1).every((page) => page.length === 50)).toBe(true)
  })

  it('answers a common word from the newest teams and a rare one beyond them, in order', async () => {
    const bulk = await allMatches('bulk')
    expect(bulk).toHaveLength(200)
    expect((await pages(`bulk-${marker}`, 7)).flat()).toEqual(bulk)
    const rare = await allMatches('rare')
    expect(rare).toHaveLength(3)
    for (const limit of [1, 2, 3, 10]) expect((await pages(`Rare-${marker}`, limit)).flat()).toEqual(rare)
  })
})
