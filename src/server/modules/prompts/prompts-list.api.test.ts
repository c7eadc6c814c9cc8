import { inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { CurrentUser } from '../../../domain/auth.ts'
import type { listPromptsQuery, PromptPage } from '../../../domain/prompts.ts'
import { prompts, teamMembers } from '../../db/schema/index.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

async function newUser(): Promise<[TestClient, CurrentUser]> {
  const client = new TestClient(testApp)
  return [client, await client.signUp()]
}

const titles = (page: PromptPage) => page.items.map((item) => item.title)

async function list(client: TestClient, query: z.input<typeof listPromptsQuery> = {}) {
  const res = await client.call(promptOperations.list, { query })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

describe('GET /api/v1/prompts (my prompts)', () => {
  it('pages through my prompts, last change first, 20 at a time', async () => {
    const [me] = await newUser()
    const [other] = await newUser()
    await createPromptAs(other, { title: 'Not mine' })
    for (let i = 1; i <= 25; i++) await createPromptAs(me, { title: `P${i}` })

    const first = await list(me)
    expect(titles(first)).toEqual(Array.from({ length: 20 }, (_, i) => `P${25 - i}`))
    expect(first.nextCursor).toEqual(expect.any(String))
    const second = await list(me, { cursor: first.nextCursor! })
    expect(titles(second)).toEqual(['P5', 'P4', 'P3', 'P2', 'P1'])
    expect(second.nextCursor).toBeNull()

    expect(titles(await list(me, { limit: 3 }))).toEqual(['P25', 'P24', 'P23'])
    expect((await list(me, { limit: 1000 })).items).toHaveLength(20)
  })

  it('moves an edited prompt to the top', async () => {
    const [me] = await newUser()
    const a = await createPromptAs(me, { title: 'Older' })
    await createPromptAs(me, { title: 'Newer' })
    await me.call(promptOperations.update, { params: { id: a.id }, body: { description: 'touched' } })
    expect(titles(await list(me))).toEqual(['Older', 'Newer'])
  })

  it('skips no row when several share a timestamp, even within one millisecond', async () => {
    const [me, user] = await newUser()
    const db = testApp.database.db
    const rows = await db
      .insert(prompts)
      .values(
        ['2026-01-01T10:00:00.000100Z', '2026-01-01T10:00:00.000200Z', '2026-01-01T10:00:00.000200Z'].flatMap(
          (at, i) => [
            {
              ownerUserId: user.id,
              title: `Same ${i}a`,
              updatedAt: sql`${at}::timestamptz` as unknown as Date,
            },
            {
              ownerUserId: user.id,
              title: `Same ${i}b`,
              updatedAt: sql`${at}::timestamptz` as unknown as Date,
            },
          ],
        ),
      )
      .returning({ id: prompts.id })
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: PromptPage = await list(me, { limit: 2, cursor: cursor ?? undefined })
      seen.push(...page.items.map((item) => item.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toHaveLength(6)
    expect(new Set(seen)).toEqual(new Set(rows.map((row) => row.id)))
    await db.delete(prompts).where(inArray(prompts.id, seen))
  })

  it('rejects a malformed cursor or limit', async () => {
    const [me] = await newUser()
    const bad = await me.call(promptOperations.list, { query: { cursor: 'bm90LWEtY3Vyc29y' } })
    expect(bad.status).toBe(400)
    expect(errorOf(bad).message).toBe('Invalid cursor format')
    const impossibleDay = btoa('2026-02-30T00:00:00Z|3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b')
    const notADay = await me.call(promptOperations.list, { query: { cursor: impossibleDay } })
    expect(notADay.status).toBe(400)
    expect(errorOf(notADay).message).toBe('Invalid cursor format')
    for (const query of [
      { limit: 'abc' },
      { limit: 2.5 },
      { scope: 'everyone' },
      { teamId: 42 },
      { visibility: 'public' },
    ]) {
      expect((await me.callUnchecked(promptOperations.list, { query })).status, JSON.stringify(query)).toBe(
        400,
      )
    }
  })

  it('bounds the filters like the prompts themselves: 20 tags of 50 characters, a short cursor', async () => {
    const [me] = await newUser()
    const tags = (count: number, length = 5) => ({
      tags: Array.from({ length: count }, (_, i) => String(i).padStart(length, 't')),
    })
    expect((await me.call(promptOperations.list, { query: tags(20) })).status).toBe(200)
    const many = await me.call(promptOperations.list, { query: tags(21) })
    expect(many.status).toBe(400)
    expect(errorOf(many).fields?.tags).toBeDefined()
    expect((await me.call(promptOperations.list, { query: tags(1, 51) })).status).toBe(400)
    const long = await me.call(promptOperations.list, { query: { cursor: 'A'.repeat(201) } })
    expect(long.status).toBe(400)
    expect(errorOf(long).message).toBe('Invalid cursor format')
  })

  it('searches titles case-insensitively, taking % and _ literally', async () => {
    const [me] = await newUser()
    for (const title of ['Email Writer', 'writing coach', 'Summaries', '100% sure', 'snake_case helper']) {
      await createPromptAs(me, { title })
    }
    expect(titles(await list(me, { search: 'WRIT' }))).toEqual(['writing coach', 'Email Writer'])
    expect(titles(await list(me, { search: '%' }))).toEqual(['100% sure'])
    expect(titles(await list(me, { search: '_' }))).toEqual(['snake_case helper'])
    expect(titles(await list(me, { search: '  ' }))).toHaveLength(5)
    expect(titles(await list(me, { search: 'nothing' }))).toEqual([])
  })

  it('filters by tags: every given tag must be present', async () => {
    const [me] = await newUser()
    await createPromptAs(me, { title: 'both', tags: ['email', 'work'] })
    await createPromptAs(me, { title: 'email only', tags: ['email'] })
    await createPromptAs(me, { title: 'none' })
    expect(titles(await list(me, { tags: 'email' }))).toEqual(['email only', 'both'])
    expect(titles(await list(me, { tags: ['email', 'work'] }))).toEqual(['both'])
    expect(titles(await list(me, { tags: 'email', search: 'BOTH' }))).toEqual(['both'])
    expect(titles(await list(me, { tags: 'missing' }))).toEqual([])
  })

  it('lists the summary fields a row needs, and not the body, which a row copies on demand', async () => {
    const [me, user] = await newUser()
    const created = await createPromptAs(me, { title: 'Row', description: 'Desc', tags: ['x'] })
    await me.call(promptOperations.update, { params: { id: created.id }, body: { body: 'Second body' } })
    const [item] = (await list(me)).items
    expect(item).toMatchObject({
      id: created.id,
      ownerUserId: user.id,
      ownerEmail: user.email,
      title: 'Row',
      description: 'Desc',
      tags: ['x'],
      visibility: 'private',
      currentVersionNumber: 2,
      versionCount: 2,
    })
    expect(item).not.toHaveProperty('currentVersionBody')
    const current = await me.call(promptOperations.version, {
      params: { id: created.id, versionId: item!.currentVersionId! },
    })
    expect(current.body.body).toBe('Second body')
  })
})

describe('what a list row tells a Langfuse user: type, labels, versions, folder', () => {
  it('gives each row its type, the labels its versions hold and how many versions it has', async () => {
    const [me] = await newUser()
    const chat = await createPromptAs(me, {
      title: 'Chatty',
      type: 'chat',
      body: JSON.stringify([{ role: 'user', content: 'Hi' }]),
    })
    const text = await createPromptAs(me, { title: 'Texty' })
    const params = { id: text.id }
    await me.call(promptOperations.update, { params, body: { body: 'Second' } })
    const staged = await me.call(promptLabelOperations.set, {
      params,
      body: { label: 'staging', versionId: text.currentVersionId! },
    })
    expect(staged.status).toBe(200)
    const rows = new Map((await list(me)).items.map((item) => [item.id, item]))
    expect(rows.get(chat.id)).toMatchObject({ type: 'chat', labels: ['production'], versionCount: 1 })
    expect(rows.get(text.id)).toMatchObject({
      type: 'text',
      labels: ['production', 'staging'],
      versionCount: 2,
    })
  })

  it('filters by folder: the names under `a/` at any depth, not `ab` nor `a` itself', async () => {
    const [me] = await newUser()
    for (const name of ['support/triage', 'support/mail/reply', 'supportive', 'support', 'sales/pitch']) {
      await createPromptAs(me, { title: name, name })
    }
    const names = async (query: z.input<typeof listPromptsQuery>) =>
      (await list(me, query)).items.map((item) => item.name).sort()
    expect(await names({ folder: 'support' })).toEqual(['support/mail/reply', 'support/triage'])
    expect(await names({ folder: 'support/mail' })).toEqual(['support/mail/reply'])
    expect(await names({ folder: 'support', search: 'triage' })).toEqual(['support/triage'])
    expect(await names({ folder: 'nowhere' })).toEqual([])
    expect((await me.call(promptOperations.list, { query: { folder: 'a//b' } })).status).toBe(400)
    expect((await me.call(promptOperations.list, { query: { folder: 'a'.repeat(256) } })).status).toBe(400)
  })
})

describe('GET /api/v1/prompts?scope=team', () => {
  it("lists the team prompts of all the caller's teams, with the owner's email or null", async () => {
    const [alice, aliceUser] = await newUser()
    const [bob, bobUser] = await newUser()
    const [carol, carolUser] = await newUser()
    const [dave] = await newUser()
    const red = await insertTeam(testApp.database.db, 'Red', [
      { userId: aliceUser.id, role: 'admin' },
      { userId: bobUser.id },
    ])
    const blue = await insertTeam(testApp.database.db, 'Blue', [
      { userId: carolUser.id, role: 'admin' },
      { userId: bobUser.id },
    ])

    await createPromptAs(alice, { title: 'Red shared', visibility: 'team', teamId: red })
    await createPromptAs(alice, { title: 'Alice private' })
    await createPromptAs(carol, { title: 'Blue shared', visibility: 'team', teamId: blue })
    await createPromptAs(bob, { title: 'Bob in red', visibility: 'team', teamId: red })

    const bobsView = await list(bob, { scope: 'team' })
    expect(titles(bobsView)).toEqual(['Bob in red', 'Blue shared', 'Red shared'])
    expect(bobsView.items.map((item) => item.ownerEmail)).toEqual([
      bobUser.email,
      carolUser.email,
      aliceUser.email,
    ])

    expect(titles(await list(bob, { scope: 'team', teamId: blue }))).toEqual(['Blue shared'])
    expect(titles(await list(alice, { scope: 'team' }))).toEqual(['Bob in red', 'Red shared'])
    // Not a member of Blue: nothing, whatever the id.
    expect(titles(await list(alice, { scope: 'team', teamId: blue }))).toEqual([])
    expect(titles(await list(dave, { scope: 'team' }))).toEqual([])

    // My prompts still holds my own team prompts; visibility narrows it.
    expect(titles(await list(alice, { visibility: 'team' }))).toEqual(['Red shared'])
    expect(titles(await list(alice, { visibility: 'private' }))).toEqual(['Alice private'])

    // Once Carol leaves Blue, Bob still sees her prompt there, but her email becomes 'Member'.
    await testApp.database.db.delete(teamMembers).where(sql`${teamMembers.userId} = ${carolUser.id}`)
    const afterLeaving = await list(bob, { scope: 'team', teamId: blue })
    expect(afterLeaving.items.map((item) => item.ownerEmail)).toEqual([null])
  })

  it('pages through the prompts of two teams in one order, each exactly once, filters applied', async () => {
    const [me, meUser] = await newUser()
    const teams = [
      await insertTeam(testApp.database.db, 'One', [{ userId: meUser.id }]),
      await insertTeam(testApp.database.db, 'Two', [{ userId: meUser.id }]),
    ]
    // Alternating teams, so that every page mixes both.
    for (let i = 1; i <= 7; i++) {
      await createPromptAs(me, {
        title: `T${i}`,
        visibility: 'team',
        teamId: teams[i % 2]!,
        tags: i % 3 === 0 ? ['third'] : [],
      })
    }
    const seen: string[] = []
    let cursor: string | null = ''
    while (cursor !== null) {
      const page: PromptPage = await list(me, { scope: 'team', limit: 3, cursor: cursor || undefined })
      seen.push(...titles(page))
      cursor = page.nextCursor
    }
    expect(seen).toEqual(['T7', 'T6', 'T5', 'T4', 'T3', 'T2', 'T1'])
    expect(titles(await list(me, { scope: 'team', tags: 'third' }))).toEqual(['T6', 'T3'])
    expect(titles(await list(me, { scope: 'team', teamId: teams[0], limit: 2 }))).toEqual(['T6', 'T4'])
  })
})

describe('GET /api/v1/prompts/tags', () => {
  it("gives the distinct tags of the scope's prompts, alphabetically", async () => {
    const [alice, aliceUser] = await newUser()
    const [bob, bobUser] = await newUser()
    const team = await insertTeam(testApp.database.db, 'Tags', [
      { userId: aliceUser.id },
      { userId: bobUser.id },
    ])
    await createPromptAs(alice, { tags: ['writing', 'email'] })
    await createPromptAs(alice, { tags: ['email', 'ai'], visibility: 'team', teamId: team })
    await createPromptAs(bob, { tags: ['secret'] })

    const mine = await alice.call(promptOperations.tags, {})
    expect(mine.body.items).toEqual(['ai', 'email', 'writing'])
    const teamTags = await bob.call(promptOperations.tags, { query: { scope: 'team' } })
    expect(teamTags.body.items).toEqual(['ai', 'email'])
    expect((await bob.callUnchecked(promptOperations.tags, { query: { scope: 'nope' } })).status).toBe(400)
  })
})
