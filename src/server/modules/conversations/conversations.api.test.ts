import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import type { OperationInput } from '../../../domain/api/operation.ts'
import { encodeCursor } from '../../../domain/cursor.ts'
import { conversationMessages, conversations } from '../../db/schema/index.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { appendMessage, createConversation, readAllPages, testAppWithPeople } from './test-fixtures.ts'

const { app, people, db } = testAppWithPeople()

async function messagesOf(client: TestClient, conversationId: string) {
  return (await client.call(conversationOperations.messages, { params: { id: conversationId } })).body.items
}

describe('POST /api/v1/conversations', () => {
  it('creates a personal conversation with trimmed title and cleaned tags', async () => {
    const res = await people.owner.call(conversationOperations.create, {
      body: { title: '  Launch plan  ', tags: [' ideas', '', 'launch ', 'ideas'] },
    })
    expect(res.status).toBe(201)
    const conversation = res.body
    expect(conversation).toMatchObject({
      title: 'Launch plan',
      teamId: null,
      teamName: null,
      ownerUserId: people.owner.user!.id,
      tags: ['ideas', 'launch'],
      content: {},
      access: { canManage: true, canModerate: false },
    })
    expect(await messagesOf(people.owner, conversation.id)).toEqual([])
  })

  it('adds a non-empty first message as a user message and writes the snapshot, in one go', async () => {
    const conversation = await createConversation(people.owner, { firstMessage: '  Hi there \n' })
    expect(conversation.content).toEqual({ messages: [{ role: 'user', content: 'Hi there' }] })
    const messages = await messagesOf(people.owner, conversation.id)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatchObject({
      role: 'user',
      content: { text: 'Hi there' },
      createdByUserId: people.owner.user!.id,
      authorEmail: people.owner.user!.email,
    })
  })

  it('sends no first message when it is blank', async () => {
    const conversation = await createConversation(people.owner, { firstMessage: '   ' })
    expect(conversation.content).toEqual({})
    expect(await messagesOf(people.owner, conversation.id)).toEqual([])
  })

  it('creates a team conversation in one of the creator teams', async () => {
    const conversation = await createConversation(people.member, { teamId: people.teamId })
    expect(conversation).toMatchObject({ teamId: people.teamId, teamName: 'Research' })
  })

  it('refuses a team the creator is not in, and writes nothing', async () => {
    const before = await db().$count(conversations)
    for (const teamId of [people.otherTeamId, '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b']) {
      const res = await people.owner.call(conversationOperations.create, { body: { title: 'x', teamId } })
      expect(res.status).toBe(404)
      expect(errorOf(res)).toEqual({
        code: 'not_found',
        message: 'Team not found or access denied',
        fields: { teamId: 'Team not found or access denied' },
      })
    }
    // a global admin too must be a member of the team
    const res = await people.globalAdmin.call(conversationOperations.create, {
      body: { title: 'x', teamId: people.teamId },
    })
    expect(res.status).toBe(404)
    expect(await db().$count(conversations)).toBe(before)
  })

  it('rolls the conversation back when the first message cannot be stored', async () => {
    const before = await db().$count(conversations)
    // Make the message insert fail inside the transaction: a trigger stands in for a failing write.
    await db().execute(sql`CREATE FUNCTION fail_message() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'message insert failed'; END $$`)
    await db().execute(sql`CREATE TRIGGER fail_message BEFORE INSERT ON conversation_messages
      FOR EACH ROW EXECUTE FUNCTION fail_message()`)
    try {
      const res = await people.owner.call(conversationOperations.create, {
        body: { title: 'Doomed', firstMessage: 'hello' },
      })
      expect(res.status).toBe(500)
      expect(JSON.stringify(res.body)).not.toContain('message insert failed')
    } finally {
      await db().execute(sql`DROP TRIGGER fail_message ON conversation_messages`)
      await db().execute(sql`DROP FUNCTION fail_message()`)
    }
    expect(await db().$count(conversations)).toBe(before)
    expect(await db().$count(conversations, eq(conversations.title, 'Doomed'))).toBe(0)
  })

  it.each([
    ['no title', {}, 'title', 'Title is required'],
    ['blank title', { title: '   ' }, 'title', 'Title is required'],
    ['long title', { title: 'x'.repeat(201) }, 'title', 'Title must be at most 200 characters'],
    ['long tag', { title: 'ok', tags: ['x'.repeat(51)] }, 'tags', 'Each tag can be at most 50 characters'],
    [
      '21 tags',
      { title: 'ok', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      'tags',
      'A conversation can have at most 20 tags',
    ],
    ['tags as text', { title: 'ok', tags: 'a,b' }, 'tags', 'Tags must be a list of words'],
    ['malformed team id', { title: 'ok', teamId: 'not-a-uuid' }, 'teamId', 'Team not found or access denied'],
    [
      'long first message',
      { title: 'ok', firstMessage: 'x'.repeat(50_001) },
      'firstMessage',
      'A message can be at most 50,000 characters',
    ],
  ])('refuses %s with a field message', async (_, body, field, text) => {
    const res = await people.owner.callUnchecked(conversationOperations.create, { body })
    expect(res.status).toBe(400)
    expect(errorOf(res).code).toBe('validation')
    expect(errorOf(res).message).toBe(text)
    expect(errorOf(res).fields?.[field]).toBe(text)
  })

  it('answers in German when asked', async () => {
    const german = new TestClient(app(), { locale: 'de' })
    await german.signUp()
    const res = await german.call(conversationOperations.create, { body: { title: '' } })
    expect(errorOf(res).message).toBe('Titel ist erforderlich')
    const missing = await german.call(conversationOperations.get, {
      params: { id: '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b' },
    })
    expect(errorOf(missing).message).toBe('Unterhaltung nicht gefunden')
  })

  it('needs a signed-in user', async () => {
    const res = await people.anonymous.call(conversationOperations.create, { body: { title: 'x' } })
    expect(res.status).toBe(401)
    expect(errorOf(res)).toEqual({ code: 'not_authenticated', message: 'User must be authenticated' })
  })
})

describe('GET, PATCH and DELETE /api/v1/conversations/:id', () => {
  it('answers a missing, hidden or malformed id with Conversation not found', async () => {
    const personal = await createConversation(people.owner)
    for (const id of ['3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b', 'nope', personal.id]) {
      const res = await people.member.call(conversationOperations.get, { params: { id } })
      expect(res.status).toBe(404)
      expect(errorOf(res)).toEqual({ code: 'not_found', message: 'Conversation not found' })
    }
  })

  it('updates title and tags (only what is sent) and moves the conversation up', async () => {
    const conversation = await createConversation(people.owner, { tags: ['a'] })
    const renamed = await people.owner.call(conversationOperations.update, {
      params: { id: conversation.id },
      body: { title: ' Renamed ' },
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ title: 'Renamed', tags: ['a'] })
    expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(conversation.updatedAt))
    const retagged = await people.owner.call(conversationOperations.update, {
      params: { id: conversation.id },
      body: { tags: ['b', ' c '] },
    })
    expect(retagged.body).toMatchObject({ title: 'Renamed', tags: ['b', 'c'] })
  })

  it('refuses an empty update and a blank title', async () => {
    const conversation = await createConversation(people.owner)
    const empty = await people.owner.call(conversationOperations.update, {
      params: { id: conversation.id },
      body: {},
    })
    expect(empty.status).toBe(400)
    expect(errorOf(empty).message).toBe('Nothing to update')
    const blank = await people.owner.call(conversationOperations.update, {
      params: { id: conversation.id },
      body: { title: ' ' },
    })
    expect(errorOf(blank).message).toBe('Title is required')
  })

  it('deletes the conversation with its messages and attachments', async () => {
    const conversation = await createConversation(people.owner, { firstMessage: 'one' })
    await appendMessage(people.owner, conversation.id)
    const res = await people.owner.call(conversationOperations.delete, { params: { id: conversation.id } })
    expect(res.status).toBe(204)
    expect(
      (await people.owner.call(conversationOperations.get, { params: { id: conversation.id } })).status,
    ).toBe(404)
    expect(
      await db().$count(conversationMessages, eq(conversationMessages.conversationId, conversation.id)),
    ).toBe(0)
  })
})

describe('who may do what with a conversation', () => {
  type Who = 'anonymous' | 'stranger' | 'member' | 'teamAdmin' | 'otherAdmin' | 'globalAdmin' | 'owner'
  const everyone: Who[] = [
    'anonymous',
    'stranger',
    'member',
    'teamAdmin',
    'otherAdmin',
    'globalAdmin',
    'owner',
  ]
  const expected: Record<
    'team' | 'personal',
    Record<Who, { view: number; manage: number; canManage?: boolean }>
  > = {
    team: {
      anonymous: { view: 401, manage: 401 },
      stranger: { view: 404, manage: 404 },
      otherAdmin: { view: 404, manage: 404 },
      member: { view: 200, manage: 403, canManage: false },
      teamAdmin: { view: 200, manage: 200, canManage: true },
      globalAdmin: { view: 200, manage: 200, canManage: true },
      owner: { view: 200, manage: 200, canManage: true },
    },
    personal: {
      anonymous: { view: 401, manage: 401 },
      stranger: { view: 404, manage: 404 },
      otherAdmin: { view: 404, manage: 404 },
      member: { view: 404, manage: 404 },
      teamAdmin: { view: 404, manage: 404 },
      globalAdmin: { view: 200, manage: 200, canManage: true },
      owner: { view: 200, manage: 200, canManage: true },
    },
  }

  for (const kind of ['team', 'personal'] as const) {
    for (const who of everyone) {
      it(`${kind} conversation, ${who}: view ${expected[kind][who].view}, change/delete ${expected[kind][who].manage}`, async () => {
        const conversation = await createConversation(people.owner, {
          teamId: kind === 'team' ? people.teamId : null,
          firstMessage: 'first',
        })
        const client = people[who]
        const params = { id: conversation.id }
        const view = await client.call(conversationOperations.get, { params })
        expect(view.status).toBe(expected[kind][who].view)
        if (view.status === 200) {
          expect(view.body.access.canManage).toBe(expected[kind][who].canManage)
          expect((await client.call(conversationOperations.messages, { params })).status).toBe(200)
        } else {
          expect((await client.call(conversationOperations.messages, { params })).status).toBe(
            expected[kind][who].view,
          )
        }
        const patch = await client.call(conversationOperations.update, {
          params,
          body: { title: `Renamed by ${who}` },
        })
        expect(patch.status).toBe(expected[kind][who].manage)
        if (patch.status === 403) {
          expect(errorOf(patch).message).toBe(
            'Only the owner, a team admin or a global admin can change or delete this conversation',
          )
        }
        expect((await client.call(conversationOperations.delete, { params })).status).toBe(
          expected[kind][who].manage === 200 ? 204 : expected[kind][who].manage,
        )
        const stillThere = await db().$count(conversations, eq(conversations.id, conversation.id))
        expect(stillThere).toBe(expected[kind][who].manage === 200 ? 0 : 1)
      })
    }
  }
})

describe('GET /api/v1/conversations', () => {
  let lister: TestClient
  let team1: string
  let team2: string
  beforeAll(async () => {
    lister = new TestClient(app())
    await lister.signUp()
    const mate = new TestClient(app())
    await mate.signUp()
    team1 = await insertTeam(db(), 'Alpha', [
      { userId: lister.user!.id, role: 'member' },
      { userId: mate.user!.id, role: 'member' },
    ])
    team2 = await insertTeam(db(), 'Beta', [
      { userId: lister.user!.id, role: 'admin' },
      { userId: mate.user!.id, role: 'member' },
    ])
    await createConversation(lister, { title: 'Personal notes', tags: ['notes'] })
    await createConversation(lister, { title: 'Alpha planning', teamId: team1, tags: ['plan', 'q1'] })
    await createConversation(mate, {
      title: 'Beta review 100%_done',
      teamId: team2,
      tags: ['plan', 'review'],
    })
    await createConversation(mate, { title: 'Mate private', tags: ['plan'] })
  })

  const titles = async (
    query: OperationInput<typeof conversationOperations.list>['query'],
    client = lister,
  ) => {
    const res = await client.call(conversationOperations.list, { query })
    expect(res.status).toBe(200)
    return res.body.items.map((item) => item.title)
  }

  it('lists my conversations newest first (scope owner is the default)', async () => {
    expect(await titles({})).toEqual(['Alpha planning', 'Personal notes'])
    expect(await titles({ scope: 'owner' })).toEqual(['Alpha planning', 'Personal notes'])
  })

  it('lists the conversations of all my teams, or of one of them', async () => {
    expect(await titles({ scope: 'team' })).toEqual(['Beta review 100%_done', 'Alpha planning'])
    expect(await titles({ scope: 'team', teamId: team2 })).toEqual(['Beta review 100%_done'])
    // a team that is not mine lists nothing
    expect(await titles({ scope: 'team', teamId: people.teamId })).toEqual([])
    const loner = new TestClient(app())
    await loner.signUp()
    expect(await titles({ scope: 'team' }, loner)).toEqual([])
  })

  it('returns the summary fields with the team name', async () => {
    const res = await lister.call(conversationOperations.list, { query: { scope: 'team', teamId: team1 } })
    expect(res.body.items[0]).toMatchObject({
      title: 'Alpha planning',
      teamId: team1,
      teamName: 'Alpha',
      ownerUserId: lister.user!.id,
      tags: ['plan', 'q1'],
    })
    expect(res.body.nextCursor).toBeNull()
  })

  it('searches titles case-insensitively, partially, trimmed, with % and _ taken literally', async () => {
    expect(await titles({ scope: 'team', search: ' PLAN ' })).toEqual(['Alpha planning'])
    expect(await titles({ scope: 'team', search: '100%_' })).toEqual(['Beta review 100%_done'])
    expect(await titles({ scope: 'team', search: '%' })).toEqual(['Beta review 100%_done'])
    expect(await titles({ scope: 'team', search: '_' })).toEqual(['Beta review 100%_done'])
    expect(await titles({ search: 'zzz' })).toEqual([])
  })

  it('filters by tags, requiring all of them', async () => {
    expect(await titles({ scope: 'team', tags: 'plan' })).toEqual(['Beta review 100%_done', 'Alpha planning'])
    expect(await titles({ scope: 'team', tags: ['plan', 'review'] })).toEqual(['Beta review 100%_done'])
    expect(await titles({ scope: 'team', tags: ['plan', 'notes'] })).toEqual([])
    expect(await titles({ tags: 'notes' })).toEqual(['Personal notes'])
  })

  it.each([
    ['scope', 'everyone', 'Scope must be owner or team'],
    ['limit', 'ten', 'Limit must be a whole number'],
    ['limit', '2.5', 'Limit must be a whole number'],
    ['cursor', 'garbage', 'Invalid cursor format'],
    ['cursor', btoa('2026-01-01T00:00:00Z'), 'Invalid cursor format'],
    ['cursor', btoa('yesterday|3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b'), 'Invalid cursor format'],
    ['cursor', btoa('2026-02-30T00:00:00Z|3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b'), 'Invalid cursor format'],
  ])('refuses ?%s=%s', async (key, value, text) => {
    const res = await lister.callUnchecked(conversationOperations.list, { query: { [key]: value } })
    expect(res.status).toBe(400)
    expect(errorOf(res).message).toBe(text)
  })

  it('bounds the tag filter like the tags themselves, and the cursor', async () => {
    const tags = (count: number) => Array.from({ length: count }, (_, i) => `t${i}`)
    expect((await lister.call(conversationOperations.list, { query: { tags: tags(20) } })).status).toBe(200)
    expect((await lister.call(conversationOperations.list, { query: { tags: tags(21) } })).status).toBe(400)
    expect((await lister.call(conversationOperations.list, { query: { tags: 'x'.repeat(51) } })).status).toBe(
      400,
    )
    const long = await lister.call(conversationOperations.list, { query: { cursor: 'A'.repeat(201) } })
    expect(long.status).toBe(400)
    expect(errorOf(long).message).toBe('Invalid cursor format')
  })

  it('refuses a search over 200 characters', async () => {
    const res = await lister.call(conversationOperations.list, { query: { search: 'x'.repeat(201) } })
    expect(res.status).toBe(400)
    expect(errorOf(res).message).toBe('Search can be at most 200 characters')
  })
})

describe('conversation list pagination', () => {
  it('pages 25 by default, clamps the limit to 1..100, and walks every row once', async () => {
    const pager = new TestClient(app())
    const user = await pager.signUp()
    await db()
      .insert(conversations)
      .values(Array.from({ length: 120 }, (_, i) => ({ title: `Bulk ${i}`, ownerUserId: user.id })))
    const first = await pager.call(conversationOperations.list, {})
    expect(first.body.items).toHaveLength(25)
    expect(first.body.nextCursor).toEqual(expect.any(String))
    expect(
      (await pager.call(conversationOperations.list, { query: { limit: 500 } })).body.items,
    ).toHaveLength(100)
    expect((await pager.call(conversationOperations.list, { query: { limit: 0 } })).body.items).toHaveLength(
      1,
    )
    const all = await readAllPages((cursor) =>
      pager.call(conversationOperations.list, { query: { limit: 50, cursor } }),
    )
    expect(all).toHaveLength(120)
    expect(new Set(all.map((c) => c.id)).size).toBe(120)
  })

  it('keeps rows that share a millisecond (cursor timestamps carry microseconds)', async () => {
    const pager = new TestClient(app())
    const user = await pager.signUp()
    const stamps = [
      '2026-03-01T10:00:00.123400Z',
      '2026-03-01T10:00:00.123401Z',
      '2026-03-01T10:00:00.123402Z',
      '2026-03-01T10:00:00.123402Z',
      '2026-03-01T10:00:00.123999Z',
      '2026-03-01T10:00:00.124000Z',
    ]
    await db()
      .insert(conversations)
      .values(
        stamps.map((at, i) => ({
          title: `Tick ${i}`,
          ownerUserId: user.id,
          updatedAt: sql`${at}::timestamptz`,
        })),
      )
    const all = await readAllPages((cursor) =>
      pager.call(conversationOperations.list, { query: { limit: 1, cursor } }),
    )
    expect(all).toHaveLength(6)
    expect(new Set(all.map((c) => c.id)).size).toBe(6)
    const sorted = [...all].sort((a, b) => {
      const at = stamps[Number(b.title.split(' ')[1])]!.localeCompare(stamps[Number(a.title.split(' ')[1])]!)
      return at !== 0 ? at : b.id.localeCompare(a.id)
    })
    expect(all.map((c) => c.title)).toEqual(sorted.map((c) => c.title))
  })

  it('neither skips nor repeats rows while others create conversations during paging', async () => {
    const pager = new TestClient(app())
    await pager.signUp()
    const originals: string[] = []
    for (let i = 0; i < 30; i += 1)
      originals.push((await createConversation(pager, { title: `Old ${i}` })).id)
    let created = 0
    const all = await readAllPages(
      (cursor) => pager.call(conversationOperations.list, { query: { limit: 7, cursor } }),
      async () => {
        await Promise.all([
          createConversation(pager, { title: `New ${created++}` }),
          createConversation(pager),
        ])
      },
    )
    const ids = all.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.filter((id) => originals.includes(id)).sort()).toEqual([...originals].sort())
  })

  it('reads a cursor that another page produced only as a position, never as a filter bypass', async () => {
    const pager = new TestClient(app())
    await pager.signUp()
    await createConversation(people.owner, { title: 'Not yours' })
    const cursor = encodeCursor({
      at: '2999-01-01T00:00:00.000000Z',
      id: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
    })
    const res = await pager.call(conversationOperations.list, { query: { cursor } })
    expect(res.status).toBe(200)
    expect(res.body.items).toEqual([])
  })
})
