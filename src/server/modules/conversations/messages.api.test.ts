import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import type { Conversation, Message } from '../../../domain/conversations.ts'
import { conversationMessages, conversations } from '../../db/schema/index.ts'
import { errorOf, type TestClient } from '../../testing/client.ts'
import {
  appendMessage,
  createConversation,
  readAllPages,
  seedPrompt,
  testAppWithPeople,
} from './test-fixtures.ts'

const { people, db } = testAppWithPeople()

async function conversationRow(id: string) {
  const [row] = await db().select().from(conversations).where(eq(conversations.id, id))
  return row!
}

describe('POST /api/v1/conversations/:id/messages', () => {
  it('appends a user message by default, trims its text, and refreshes snapshot and updated_at', async () => {
    const conversation = await createConversation(people.owner)
    const before = await conversationRow(conversation.id)
    const res = await people.owner.call(conversationOperations.appendMessage, {
      params: { id: conversation.id },
      body: { content: { text: '  How do I start?  ' } },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      conversationId: conversation.id,
      role: 'user',
      content: { text: 'How do I start?' },
      model: null,
      tokenCount: null,
      createdByUserId: people.owner.user!.id,
      attachments: [],
    })
    const after = await conversationRow(conversation.id)
    expect(after.content).toEqual({ messages: [{ role: 'user', content: 'How do I start?' }] })
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime())
  })

  it('logs an assistant reply with its model and token count; accepts content as a plain string', async () => {
    const conversation = await createConversation(people.owner)
    const message = await appendMessage(people.owner, conversation.id, {
      role: 'assistant',
      content: 'Start small.',
      model: ' gpt-4o ',
      tokenCount: 42,
    })
    expect(message).toMatchObject({
      role: 'assistant',
      content: { text: 'Start small.' },
      model: 'gpt-4o',
      tokenCount: 42,
    })
    const system = await appendMessage(people.owner, conversation.id, { role: 'system', model: '' })
    expect(system).toMatchObject({ role: 'system', model: null })
  })

  it('keeps the last 10 messages, oldest first, as the snapshot', async () => {
    const conversation = await createConversation(people.owner)
    for (let i = 1; i <= 12; i += 1) {
      await appendMessage(people.owner, conversation.id, {
        role: i % 2 ? 'user' : 'assistant',
        content: { text: `m${i}` },
      })
    }
    const { content } = await conversationRow(conversation.id)
    expect(content).toEqual({
      messages: Array.from({ length: 10 }, (_, k) => ({
        role: (k + 3) % 2 ? 'user' : 'assistant',
        content: `m${k + 3}`,
      })),
    })
  })

  it.each([
    ['no content', {}, 'content', 'Message text is required'],
    ['blank text', { content: { text: '   ' } }, 'content', 'Message text is required'],
    ['empty string', { content: '' }, 'content', 'Message text is required'],
    [
      'text too long',
      { content: { text: 'x'.repeat(50_001) } },
      'content',
      'A message can be at most 50,000 characters',
    ],
    ['unknown role', { content: 'hi', role: 'tool' }, 'role', 'Role must be user, assistant or system'],
    [
      'model too long',
      { content: 'hi', model: 'm'.repeat(101) },
      'model',
      'The model name can be at most 100 characters',
    ],
    [
      'negative tokens',
      { content: 'hi', tokenCount: -1 },
      'tokenCount',
      'Token count must be a whole number of 0 or more',
    ],
    [
      'fractional tokens',
      { content: 'hi', tokenCount: 1.5 },
      'tokenCount',
      'Token count must be a whole number of 0 or more',
    ],
    [
      'tokens as text',
      { content: 'hi', tokenCount: '12' },
      'tokenCount',
      'Token count must be a whole number of 0 or more',
    ],
    [
      'attachments not a list',
      { content: 'hi', attachments: 'p' },
      'attachments',
      'Attachments must be a list of prompts',
    ],
    [
      'eleven attachments',
      { content: 'hi', attachments: Array.from({ length: 11 }, () => ({ promptId: crypto.randomUUID() })) },
      'attachments',
      'At most 10 prompts can be attached to one message',
    ],
  ])('refuses %s and writes nothing', async (_, body, field, text) => {
    const conversation = await createConversation(people.owner)
    const res = await people.owner.callUnchecked(conversationOperations.appendMessage, {
      params: { id: conversation.id },
      body,
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).message).toBe(text)
    expect(errorOf(res).fields?.[field]).toBe(text)
    expect(
      await db().$count(conversationMessages, eq(conversationMessages.conversationId, conversation.id)),
    ).toBe(0)
  })

  it('stores attachments with the message; a bad one rolls the whole append back', async () => {
    const conversation = await createConversation(people.owner)
    const prompt = await seedPrompt(db(), { owner: people.owner.user!, title: 'Summarizer', versions: 2 })
    const message = await appendMessage(people.owner, conversation.id, {
      attachments: [{ promptId: prompt.id }, { promptId: prompt.id, promptVersionId: prompt.versionIds[0] }],
    })
    expect(message.attachments.map((a) => [a.title, a.versionNumber, a.promptVersionId])).toEqual([
      ['Summarizer', null, null],
      ['Summarizer', 1, prompt.versionIds[0]],
    ])
    const before = await conversationRow(conversation.id)
    const foreign = await seedPrompt(db(), { owner: people.stranger.user!, title: 'Secret' })
    const res = await people.owner.call(conversationOperations.appendMessage, {
      params: { id: conversation.id },
      body: {
        content: 'with a hidden prompt',
        attachments: [{ promptId: prompt.id }, { promptId: foreign.id }],
      },
    })
    expect(res.status).toBe(404)
    expect(errorOf(res).message).toBe('Prompt not found')
    const after = await conversationRow(conversation.id)
    expect(
      await db().$count(conversationMessages, eq(conversationMessages.conversationId, conversation.id)),
    ).toBe(1)
    expect(after.content).toEqual(before.content)
    expect(after.updatedAt).toEqual(before.updatedAt)
  })

  it('keeps attachments in the order they were picked, and stamps each appended message after the one before', async () => {
    const conversation = await createConversation(people.owner)
    const titles = Array.from({ length: 8 }, (_, i) => `Pick ${i}`)
    const picked = []
    for (const title of titles) picked.push(await seedPrompt(db(), { owner: people.owner.user!, title }))
    // Inserted within a millisecond: PGlite's clock alone would tie them (decision 0237).
    const message = await appendMessage(people.owner, conversation.id, {
      attachments: picked.map((prompt) => ({ promptId: prompt.id })),
    })
    expect(message.attachments.map((a) => a.title)).toEqual(titles)
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        appendMessage(people.owner, conversation.id, { content: `m${i}` }),
      ),
    )
    const stamps = await db()
      .select({ at: sql<string>`${conversationMessages.createdAt}::text` })
      .from(conversationMessages)
      .where(eq(conversationMessages.conversationId, conversation.id))
      .orderBy(conversationMessages.createdAt, conversationMessages.id)
    expect(stamps).toHaveLength(11)
    // Each message strictly after the one before it, to the microsecond.
    expect(new Set(stamps.map((row) => row.at)).size).toBe(stamps.length)
  })

  it('answers Conversation not found for a missing or hidden conversation', async () => {
    const personal = await createConversation(people.owner)
    for (const id of [personal.id, crypto.randomUUID(), 'x']) {
      const res = await people.stranger.call(conversationOperations.appendMessage, {
        params: { id },
        body: { content: 'hi' },
      })
      expect(res.status).toBe(404)
      expect(errorOf(res).message).toBe('Conversation not found')
    }
  })
})

describe('GET /api/v1/conversations/:id/messages', () => {
  let conversation: Conversation
  let written: Message[]
  beforeAll(async () => {
    conversation = await createConversation(people.owner, { teamId: people.teamId })
    written = []
    for (let i = 0; i < 120; i += 1) {
      written.push(
        await appendMessage(i % 2 ? people.member : people.owner, conversation.id, { content: `n${i}` }),
      )
    }
  })
  /** A page of the conversation's messages, as `client` sees it. */
  const messages = (
    client: TestClient,
    query: { limit?: number; order?: 'asc' | 'desc'; cursor?: string } = {},
  ) => client.call(conversationOperations.messages, { params: { id: conversation.id }, query })

  it('pages oldest first, 50 by default, limits clamped to 1..100', async () => {
    const first = await messages(people.member)
    expect(first.body.items.map((m) => m.id)).toEqual(written.slice(0, 50).map((m) => m.id))
    expect(first.body.nextCursor).toEqual(expect.any(String))
    const big = await messages(people.member, { limit: 1000 })
    expect(big.body.items).toHaveLength(100)
    const all = await readAllPages((cursor) => messages(people.member, { limit: 100, cursor }))
    expect(all.map((m) => m.id)).toEqual(written.map((m) => m.id))
  })

  it('pages newest first with order=desc', async () => {
    const all = await readAllPages((cursor) => messages(people.member, { order: 'desc', limit: 33, cursor }))
    expect(all.map((m) => m.id)).toEqual(written.map((m) => m.id).reverse())
  })

  it('answers an empty page for a conversation without messages, Conversation not found for a missing one', async () => {
    const empty = await createConversation(people.owner, { teamId: people.teamId })
    const page = await people.member.call(conversationOperations.messages, { params: { id: empty.id } })
    expect(page.status).toBe(200)
    expect(page.body).toEqual({ items: [], nextCursor: null })
    // A cursor past what is left: the conversation is there, its page empty.
    const two = await createConversation(people.owner)
    await appendMessage(people.owner, two.id)
    const second = await appendMessage(people.owner, two.id)
    const params = { id: two.id }
    const first = await people.owner.call(conversationOperations.messages, { params, query: { limit: 1 } })
    const removed = await people.owner.call(conversationOperations.deleteMessage, {
      params: { id: second.id },
    })
    expect(removed.status).toBe(204)
    const after = await people.owner.call(conversationOperations.messages, {
      params,
      query: { limit: 1, cursor: first.body.nextCursor! },
    })
    expect(after.status).toBe(200)
    expect(after.body).toEqual({ items: [], nextCursor: null })
    for (const [client, id] of [
      [people.stranger, empty.id],
      [people.member, crypto.randomUUID()],
    ] as const) {
      const res = await client.call(conversationOperations.messages, { params: { id } })
      expect(res.status).toBe(404)
      expect(errorOf(res).message).toBe('Conversation not found')
    }
  })

  it('tells who wrote each message', async () => {
    const res = await messages(people.teamAdmin, { limit: 2 })
    expect(res.body.items.map((m) => m.authorEmail)).toEqual([
      people.owner.user!.email,
      people.member.user!.email,
    ])
  })

  it.each([
    ['order', 'sideways', 'Order must be asc or desc'],
    ['cursor', 'Zm9v', 'Invalid cursor format'],
    ['limit', 'x', 'Limit must be a whole number'],
  ])('refuses ?%s=%s', async (key, value, text) => {
    const res = await people.owner.callUnchecked(conversationOperations.messages, {
      params: { id: conversation.id },
      query: { [key]: value },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).message).toBe(text)
  })

  it('keeps messages that share a millisecond', async () => {
    const target = await createConversation(people.owner)
    const stamps = ['.500100', '.500101', '.500101', '.500102', '.500999', '.501000'].map(
      (fraction) => `2026-04-01T08:00:00${fraction}Z`,
    )
    await db()
      .insert(conversationMessages)
      .values(
        stamps.map((at, i) => ({
          conversationId: target.id,
          role: 'user' as const,
          content: { text: `t${i}` },
          createdAt: sql`${at}::timestamptz`,
        })),
      )
    const all = await readAllPages((cursor) =>
      people.owner.call(conversationOperations.messages, {
        params: { id: target.id },
        query: { limit: 1, cursor },
      }),
    )
    expect(all.map((m) => m.content.text).sort()).toEqual(['t0', 't1', 't2', 't3', 't4', 't5'])
    expect(new Set(all.map((m) => m.id)).size).toBe(6)
    const desc = await readAllPages((cursor) =>
      people.owner.call(conversationOperations.messages, {
        params: { id: target.id },
        query: { limit: 1, order: 'desc', cursor },
      }),
    )
    expect(desc.map((m) => m.id)).toEqual(all.map((m) => m.id).reverse())
  })

  it('neither skips nor repeats messages while others append during paging', async () => {
    const target = await createConversation(people.owner, { teamId: people.teamId })
    for (let i = 0; i < 20; i += 1) await appendMessage(people.owner, target.id, { content: `old ${i}` })
    const page = (cursor: string | undefined) =>
      people.member.call(conversationOperations.messages, {
        params: { id: target.id },
        query: { limit: 4, cursor },
      })
    // Four writers append while a reader keeps paging through the whole conversation, again and again.
    let writing = true
    const writer = async (client: typeof people.member, name: string) => {
      for (let i = 0; i < 15; i += 1) await appendMessage(client, target.id, { content: `${name} ${i}` })
    }
    const passes: string[][] = []
    const reader = async () => {
      while (writing) passes.push((await readAllPages(page)).map((m) => m.id))
    }
    await Promise.all([
      reader(),
      Promise.all([
        writer(people.member, 'member'),
        writer(people.teamAdmin, 'admin'),
        writer(people.owner, 'owner'),
        writer(people.globalAdmin, 'global'),
      ]).then(() => {
        writing = false
      }),
    ])
    const final = (await readAllPages(page)).map((m) => m.id)
    expect(final).toHaveLength(80)
    expect(passes.length).toBeGreaterThan(0)
    for (const seen of passes) {
      // Each pass saw exactly the start of the final order: nothing skipped, nothing twice.
      expect(seen).toEqual(final.slice(0, seen.length))
    }
  })
})

describe('PATCH and DELETE /api/v1/messages/:id', () => {
  it('edits the text and role and refreshes the snapshot', async () => {
    const conversation = await createConversation(people.owner, { firstMessage: 'draft' })
    const [message] = (
      await people.owner.call(conversationOperations.messages, { params: { id: conversation.id } })
    ).body.items
    const res = await people.owner.call(conversationOperations.updateMessage, {
      params: { id: message!.id },
      body: { content: { text: ' final ' }, role: 'assistant' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ content: { text: 'final' }, role: 'assistant' })
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(message!.updatedAt))
    expect((await conversationRow(conversation.id)).content).toEqual({
      messages: [{ role: 'assistant', content: 'final' }],
    })
  })

  it('saves nothing when the text is unchanged', async () => {
    const conversation = await createConversation(people.owner)
    const message = await appendMessage(people.owner, conversation.id, { content: 'same' })
    const before = await conversationRow(conversation.id)
    const res = await people.owner.call(conversationOperations.updateMessage, {
      params: { id: message.id },
      body: { content: { text: ' same ' } },
    })
    expect(res.status).toBe(200)
    expect(res.body.updatedAt).toBe(message.updatedAt)
    expect((await conversationRow(conversation.id)).updatedAt).toEqual(before.updatedAt)
  })

  it('refuses empty edits', async () => {
    const conversation = await createConversation(people.owner)
    const message = await appendMessage(people.owner, conversation.id)
    for (const [body, text] of [
      [{}, 'Nothing to update'],
      [{ content: { text: ' ' } }, 'Message text is required'],
      [{ role: 'robot' }, 'Role must be user, assistant or system'],
    ] as const) {
      const res = await people.owner.callUnchecked(conversationOperations.updateMessage, {
        params: { id: message.id },
        body,
      })
      expect(res.status).toBe(400)
      expect(errorOf(res).message).toBe(text)
    }
  })

  it('deletes a message and rewrites the snapshot ({} when none is left)', async () => {
    const conversation = await createConversation(people.owner, { firstMessage: 'one' })
    const second = await appendMessage(people.owner, conversation.id, { content: 'two' })
    expect(
      (await people.owner.call(conversationOperations.deleteMessage, { params: { id: second.id } })).status,
    ).toBe(204)
    expect((await conversationRow(conversation.id)).content).toEqual({
      messages: [{ role: 'user', content: 'one' }],
    })
    const [first] = (
      await people.owner.call(conversationOperations.messages, { params: { id: conversation.id } })
    ).body.items
    expect(
      (await people.owner.call(conversationOperations.deleteMessage, { params: { id: first!.id } })).status,
    ).toBe(204)
    expect((await conversationRow(conversation.id)).content).toEqual({})
    const again = await people.owner.call(conversationOperations.deleteMessage, { params: { id: first!.id } })
    expect(again.status).toBe(404)
    expect(errorOf(again).message).toBe('Message not found')
  })
})

describe('who may write which messages', () => {
  type Who = 'anonymous' | 'stranger' | 'otherAdmin' | 'member' | 'teamAdmin' | 'globalAdmin' | 'owner'
  // append: may they add a message? own: change their own? others: change the owner's message?
  const expected: Record<'team' | 'personal', Record<Who, { append: number; others: number }>> = {
    team: {
      anonymous: { append: 401, others: 401 },
      stranger: { append: 404, others: 404 },
      otherAdmin: { append: 404, others: 404 },
      member: { append: 201, others: 403 },
      teamAdmin: { append: 201, others: 200 },
      globalAdmin: { append: 201, others: 200 },
      // Moderating others' messages is for team admins and global admins, not the owner
      owner: { append: 201, others: 403 },
    },
    personal: {
      anonymous: { append: 401, others: 401 },
      stranger: { append: 404, others: 404 },
      otherAdmin: { append: 404, others: 404 },
      member: { append: 404, others: 404 },
      teamAdmin: { append: 404, others: 404 },
      globalAdmin: { append: 201, others: 200 },
      owner: { append: 201, others: 200 },
    },
  }
  for (const kind of ['team', 'personal'] as const) {
    for (const who of Object.keys(expected[kind]) as Who[]) {
      const { append, others } = expected[kind][who]
      it(`${kind} conversation, ${who}: append ${append}, edit/delete another's message ${others}`, async () => {
        const conversation = await createConversation(people.owner, {
          teamId: kind === 'team' ? people.teamId : null,
        })
        const client = people[who]
        const authored = who === 'owner' ? people.member : people.owner
        // in a personal conversation only the owner writes; someone else's message there is the owner's
        const target = await appendMessage(kind === 'team' ? authored : people.owner, conversation.id, {
          content: 'target',
        })
        const appended = await client.call(conversationOperations.appendMessage, {
          params: { id: conversation.id },
          body: { content: 'mine' },
        })
        expect(appended.status).toBe(append)
        if (appended.status === 201) {
          // Everyone who may append may change their own message.
          const own = appended.body.id
          expect(
            (
              await client.call(conversationOperations.updateMessage, {
                params: { id: own },
                body: { content: 'mine, edited' },
              })
            ).status,
          ).toBe(200)
          expect(
            (await client.call(conversationOperations.deleteMessage, { params: { id: own } })).status,
          ).toBe(204)
        }
        if (kind === 'personal' && who === 'owner') return
        const edit = await client.call(conversationOperations.updateMessage, {
          params: { id: target.id },
          body: { content: 'changed' },
        })
        expect(edit.status).toBe(others)
        if (edit.status === 403)
          expect(errorOf(edit).message).toBe('You can only edit or delete your own messages')
        if (edit.status === 404) expect(errorOf(edit).message).toBe('Message not found')
        const removed = await client.call(conversationOperations.deleteMessage, { params: { id: target.id } })
        expect(removed.status).toBe(others === 200 ? 204 : others)
      })
    }
  }
})
