import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import type { OperationInput } from '../../../domain/api/operation.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { PromptUsage } from '../../../domain/conversations.ts'
import { conversationMessagePrompts, prompts } from '../../db/schema/index.ts'
import { errorOf, type TestClient } from '../../testing/client.ts'
import { appendMessage, createConversation, seedPrompt, testAppWithPeople } from './test-fixtures.ts'

const { people, db } = testAppWithPeople()

/** `client` attaches a prompt to a message. */
const attachAs = (
  client: TestClient,
  messageId: string,
  body: OperationInput<typeof conversationOperations.attach>['body'],
) => client.call(conversationOperations.attach, { params: { id: messageId }, body })

describe('POST /api/v1/messages/:id/attachments', () => {
  it('attaches latest (no version stored) and a specific version, with title and version number', async () => {
    const conversation = await createConversation(people.owner)
    const message = await appendMessage(people.owner, conversation.id)
    const prompt = await seedPrompt(db(), { owner: people.owner.user!, title: 'Translator', versions: 3 })
    const latest = await attachAs(people.owner, message.id, { promptId: prompt.id })
    expect(latest.status).toBe(201)
    expect(latest.body).toMatchObject({
      messageId: message.id,
      promptId: prompt.id,
      promptVersionId: null,
      versionNumber: null,
      title: 'Translator',
      attachedByUserId: people.owner.user!.id,
      notes: null,
    })
    const v2 = await attachAs(people.owner, message.id, {
      promptId: prompt.id,
      promptVersionId: prompt.versionIds[1],
      notes: ' used for German ',
    })
    expect(v2.status).toBe(201)
    expect(v2.body).toMatchObject({
      promptVersionId: prompt.versionIds[1],
      versionNumber: 2,
      notes: 'used for German',
    })
    const listed = await people.owner.call(conversationOperations.attachments, { params: { id: message.id } })
    expect(listed.body.items.map((a) => a.versionNumber)).toEqual([null, 2])
    const [stored] = await db()
      .select()
      .from(conversationMessagePrompts)
      .where(eq(conversationMessagePrompts.id, latest.body.id))
    expect(stored!.promptVersionId).toBeNull()
  })

  it('come with each message of a page, oldest first, as the message’s own list has them', async () => {
    const conversation = await createConversation(people.owner)
    const prompt = await seedPrompt(db(), { owner: people.owner.user!, title: 'Outline', versions: 2 })
    const first = await appendMessage(people.owner, conversation.id, {
      attachments: [{ promptId: prompt.id, promptVersionId: prompt.versionIds[0] }],
    })
    const bare = await appendMessage(people.owner, conversation.id)
    const last = await appendMessage(people.owner, conversation.id)
    const attached = []
    for (const promptVersionId of [prompt.versionIds[1], undefined]) {
      const res = await attachAs(people.owner, last.id, { promptId: prompt.id, promptVersionId })
      expect(res.status).toBe(201)
      attached.push(res.body)
    }
    // Their order is their creation time's, not the order they were written in.
    await db()
      .update(conversationMessagePrompts)
      .set({ createdAt: sql`${conversationMessagePrompts.createdAt} + interval '1 minute'` })
      .where(eq(conversationMessagePrompts.id, attached[0]!.id))
    const page = await people.owner.call(conversationOperations.messages, { params: { id: conversation.id } })
    expect(page.body.items.map((m) => m.id)).toEqual([first.id, bare.id, last.id])
    const [ofFirst, ofBare, ofLast] = page.body.items.map((m) => m.attachments)
    expect(ofBare).toEqual([])
    expect(ofFirst!.map((a) => a.versionNumber)).toEqual([1])
    expect(ofLast!.map((a) => [a.id, a.versionNumber, a.title])).toEqual([
      [attached[1]!.id, null, 'Outline'],
      [attached[0]!.id, 2, 'Outline'],
    ])
    for (const message of [first, last]) {
      const listed = await people.owner.call(conversationOperations.attachments, {
        params: { id: message.id },
      })
      expect(page.body.items.find((m) => m.id === message.id)!.attachments).toEqual(listed.body.items)
    }
    // The creation time as every other time of the API: UTC to the millisecond.
    const [stored] = await db()
      .select({ createdAt: conversationMessagePrompts.createdAt })
      .from(conversationMessagePrompts)
      .where(eq(conversationMessagePrompts.id, ofFirst![0]!.id))
    expect(ofFirst![0]!.createdAt).toBe(stored!.createdAt.toISOString())
  })

  it('refuses attaching the same version (or latest) twice', async () => {
    const conversation = await createConversation(people.owner)
    const message = await appendMessage(people.owner, conversation.id)
    const prompt = await seedPrompt(db(), { owner: people.owner.user!, versions: 2 })
    for (const body of [
      { promptId: prompt.id },
      { promptId: prompt.id, promptVersionId: prompt.versionIds[0] },
    ]) {
      expect((await attachAs(people.owner, message.id, body)).status).toBe(201)
      const again = await attachAs(people.owner, message.id, body)
      expect(again.status).toBe(409)
      expect(errorOf(again).message).toBe('This prompt version is already attached to the message')
    }
  })

  it('attaches team prompts of the team, never prompts the user cannot see', async () => {
    const conversation = await createConversation(people.member, { teamId: people.teamId })
    const message = await appendMessage(people.member, conversation.id)
    const teamPrompt = await seedPrompt(db(), {
      owner: people.teamAdmin.user!,
      teamId: people.teamId,
      title: 'Team one',
    })
    const ok = await attachAs(people.member, message.id, { promptId: teamPrompt.id })
    expect(ok.status).toBe(201)
    const privateOfAdmin = await seedPrompt(db(), { owner: people.teamAdmin.user!, title: 'Private' })
    const otherTeams = await seedPrompt(db(), { owner: people.otherAdmin.user!, teamId: people.otherTeamId })
    for (const promptId of [privateOfAdmin.id, otherTeams.id, crypto.randomUUID()]) {
      const res = await attachAs(people.member, message.id, { promptId })
      expect(res.status).toBe(404)
      expect(errorOf(res)).toEqual({ code: 'not_found', message: 'Prompt not found' })
    }
  })

  it('refuses a version of another prompt', async () => {
    const conversation = await createConversation(people.owner)
    const message = await appendMessage(people.owner, conversation.id)
    const one = await seedPrompt(db(), { owner: people.owner.user! })
    const two = await seedPrompt(db(), { owner: people.owner.user! })
    for (const versionId of [two.versionIds[0], crypto.randomUUID()]) {
      const res = await attachAs(people.owner, message.id, { promptId: one.id, promptVersionId: versionId })
      expect(res.status).toBe(404)
      expect(errorOf(res).message).toBe('Version not found')
    }
    expect(
      await db().$count(conversationMessagePrompts, eq(conversationMessagePrompts.messageId, message.id)),
    ).toBe(0)
  })

  it.each([
    ['no prompt', {}, 'promptId', 'Prompt not found'],
    ['malformed prompt id', { promptId: 'abc' }, 'promptId', 'Prompt not found'],
    [
      'malformed version id',
      { promptId: crypto.randomUUID(), promptVersionId: 'v1' },
      'promptVersionId',
      'Version not found',
    ],
    [
      'long notes',
      { promptId: crypto.randomUUID(), notes: 'n'.repeat(1001) },
      'notes',
      'Notes can be at most 1,000 characters',
    ],
  ])('refuses %s', async (_, body, field, text) => {
    const conversation = await createConversation(people.owner)
    const message = await appendMessage(people.owner, conversation.id)
    const res = await people.owner.callUnchecked(conversationOperations.attach, {
      params: { id: message.id },
      body,
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.[field]).toBe(text)
  })

  it('while the owner deletes the prompt: attached and then removed with it, or Prompt not found; never a 500', async () => {
    const conversation = await createConversation(people.owner)
    const message = await appendMessage(people.owner, conversation.id)
    for (let round = 0; round < 15; round += 1) {
      const prompt = await seedPrompt(db(), { owner: people.owner.user!, title: `Doomed ${round}` })
      const [attached, deleted, appended] = await Promise.all([
        attachAs(people.owner, message.id, { promptId: prompt.id, promptVersionId: prompt.versionIds[0] }),
        people.owner.call(promptOperations.delete, { params: { id: prompt.id } }),
        people.owner.call(conversationOperations.appendMessage, {
          params: { id: conversation.id },
          body: { content: { text: 'with the doomed prompt' }, attachments: [{ promptId: prompt.id }] },
        }),
      ])
      expect(deleted.status).toBe(204)
      expect([201, 404]).toContain(attached.status)
      expect([201, 404]).toContain(appended.status)
      const left = await db()
        .select()
        .from(conversationMessagePrompts)
        .where(eq(conversationMessagePrompts.promptId, prompt.id))
      expect(left).toEqual([])
    }
  })

  it('answers Message not found for a missing or hidden message, and needs a user', async () => {
    const conversation = await createConversation(people.owner)
    const message = await appendMessage(people.owner, conversation.id)
    const prompt = await seedPrompt(db(), { owner: people.stranger.user! })
    for (const id of [message.id, crypto.randomUUID(), 'x']) {
      const res = await attachAs(people.stranger, id, { promptId: prompt.id })
      expect(res.status).toBe(404)
      expect(errorOf(res).message).toBe('Message not found')
    }
    const anonymous = await attachAs(people.anonymous, message.id, { promptId: prompt.id })
    expect(anonymous.status).toBe(401)
    expect(errorOf(anonymous).message).toBe('User must be authenticated')
  })
})

describe('DELETE /api/v1/messages/:id/attachments/:attachmentId', () => {
  it('removes an attachment once; then it is not found', async () => {
    const conversation = await createConversation(people.owner)
    const prompt = await seedPrompt(db(), { owner: people.owner.user! })
    const message = await appendMessage(people.owner, conversation.id, {
      attachments: [{ promptId: prompt.id }],
    })
    const attachment = message.attachments[0]!
    const params = { id: message.id, attachmentId: attachment.id }
    expect((await people.owner.call(conversationOperations.detach, { params })).status).toBe(204)
    const again = await people.owner.call(conversationOperations.detach, { params })
    expect(again.status).toBe(404)
    expect(errorOf(again).message).toBe('Attachment not found')
    // an attachment id of another message is not found either
    const other = await appendMessage(people.owner, conversation.id, {
      attachments: [{ promptId: prompt.id }],
    })
    const crossed = await people.owner.call(conversationOperations.detach, {
      params: { id: message.id, attachmentId: other.attachments[0]!.id },
    })
    expect(crossed.status).toBe(404)
  })
})

describe('who may attach and remove', () => {
  type Who = 'anonymous' | 'stranger' | 'otherAdmin' | 'member' | 'teamAdmin' | 'globalAdmin' | 'owner'
  // On a message written by the member in a team conversation of the owner.
  const expected: Record<Who, number> = {
    anonymous: 401,
    stranger: 404,
    otherAdmin: 404,
    member: 201,
    teamAdmin: 201,
    globalAdmin: 201,
    // attachments follow the message: the owner does not moderate others' messages
    owner: 403,
  }
  for (const who of Object.keys(expected) as Who[]) {
    it(`${who}: ${expected[who]}`, async () => {
      const conversation = await createConversation(people.owner, { teamId: people.teamId })
      const byMember = await appendMessage(people.member, conversation.id)
      const client = people[who]
      // Each attaches a prompt of their own, which they certainly may see.
      const own = await seedPrompt(db(), { owner: (client.user ?? people.stranger.user)! })
      const attach = await attachAs(client, byMember.id, { promptId: own.id })
      expect(attach.status).toBe(expected[who])
      const teamPrompt = await seedPrompt(db(), { owner: people.member.user!, teamId: people.teamId })
      const existing = await attachAs(people.member, byMember.id, {
        promptId: teamPrompt.id,
        promptVersionId: teamPrompt.versionIds[0],
      })
      const remove = await client.call(conversationOperations.detach, {
        params: { id: byMember.id, attachmentId: existing.body.id },
      })
      expect(remove.status).toBe(expected[who] === 201 ? 204 : expected[who])
    })
  }

  it('a member may not attach to or remove from another member’s message', async () => {
    const conversation = await createConversation(people.owner, { teamId: people.teamId })
    const prompt = await seedPrompt(db(), { owner: people.owner.user!, teamId: people.teamId })
    const byOwner = await appendMessage(people.owner, conversation.id, {
      attachments: [{ promptId: prompt.id }],
    })
    const attach = await attachAs(people.member, byOwner.id, {
      promptId: prompt.id,
      promptVersionId: prompt.versionIds[0],
    })
    expect(attach.status).toBe(403)
    expect(errorOf(attach).message).toBe('You can only attach prompts to your own messages')
    const remove = await people.member.call(conversationOperations.detach, {
      params: { id: byOwner.id, attachmentId: byOwner.attachments[0]!.id },
    })
    expect(remove.status).toBe(403)
    expect(errorOf(remove).message).toBe('You can only remove attachments from your own messages')
  })
})

describe('attachments a viewer may not see', () => {
  it('keep their place but neither the prompt title nor its ids (review, also noted)', async () => {
    const conversation = await createConversation(people.owner, { teamId: people.teamId })
    const prompt = await seedPrompt(db(), {
      owner: people.owner.user!,
      teamId: people.teamId,
      title: 'Shared for now',
      versions: 2,
    })
    const message = await appendMessage(people.owner, conversation.id, {
      attachments: [{ promptId: prompt.id }, { promptId: prompt.id, promptVersionId: prompt.versionIds[1] }],
    })
    // The owner makes the prompt private again: team members keep seeing the attachments, untitled.
    await db().update(prompts).set({ visibility: 'private', teamId: null }).where(eq(prompts.id, prompt.id))
    const params = { id: conversation.id }
    const asMember = await people.member.call(conversationOperations.messages, { params })
    const hidden = asMember.body.items[0]!.attachments
    expect(hidden.map((a) => a.versionNumber).sort()).toEqual([2, null])
    for (const attachment of hidden) {
      expect(attachment).toMatchObject({ promptId: null, promptVersionId: null, title: null })
    }
    const listed = await people.member.call(conversationOperations.attachments, {
      params: { id: message.id },
    })
    expect(JSON.stringify(listed.body)).not.toContain(prompt.id)
    expect(JSON.stringify(listed.body)).not.toContain(prompt.versionIds[1])
    const asOwner = await people.owner.call(conversationOperations.messages, { params })
    expect(asOwner.body.items[0]!.attachments).toContainEqual(
      expect.objectContaining({
        promptId: prompt.id,
        promptVersionId: prompt.versionIds[1],
        title: 'Shared for now',
      }),
    )
  })
})

describe('GET /api/v1/prompts/:id/usage', () => {
  it('lists per version the conversations the viewer may see, with exact counts', async () => {
    const prompt = await seedPrompt(db(), { owner: people.owner.user!, teamId: people.teamId, versions: 3 })
    const [v1, v2] = prompt.versionIds
    const personal = await createConversation(people.owner, { title: 'Owner only' })
    const shared = await createConversation(people.owner, { title: 'Team talk', teamId: people.teamId })
    const another = await createConversation(people.member, { title: 'Member talk', teamId: people.teamId })
    await appendMessage(people.owner, personal.id, {
      attachments: [{ promptId: prompt.id, promptVersionId: v1 }],
    })
    await appendMessage(people.owner, shared.id, {
      attachments: [{ promptId: prompt.id, promptVersionId: v1 }, { promptId: prompt.id }],
    })
    // attached twice in one conversation: still one conversation
    await appendMessage(people.owner, shared.id, {
      attachments: [{ promptId: prompt.id, promptVersionId: v1 }],
    })
    await appendMessage(people.member, another.id, {
      attachments: [{ promptId: prompt.id, promptVersionId: v2 }],
    })

    const asOwner = await people.owner.call(conversationOperations.promptUsage, { params: { id: prompt.id } })
    expect(asOwner.status).toBe(200)
    const summary = (usage: PromptUsage) =>
      usage.versions.map((v) => [v.versionNumber, v.conversationCount, v.conversations.map((c) => c.title)])
    expect(asOwner.body.conversationCount).toBe(3)
    expect(summary(asOwner.body)).toEqual([
      [null, 1, ['Team talk']],
      [3, 0, []],
      [2, 1, ['Member talk']],
      [1, 2, ['Team talk', 'Owner only']],
    ])

    const asMember = await people.member.call(conversationOperations.promptUsage, {
      params: { id: prompt.id },
    })
    expect(asMember.body.conversationCount).toBe(2)
    expect(summary(asMember.body)).toEqual([
      [null, 1, ['Team talk']],
      [3, 0, []],
      [2, 1, ['Member talk']],
      [1, 1, ['Team talk']],
    ])
  })

  it('answers Prompt not found for a prompt the viewer may not see', async () => {
    const prompt = await seedPrompt(db(), { owner: people.owner.user! })
    for (const id of [prompt.id, crypto.randomUUID(), 'nope']) {
      const res = await people.stranger.call(conversationOperations.promptUsage, { params: { id } })
      expect(res.status).toBe(404)
      expect(errorOf(res).message).toBe('Prompt not found')
    }
    expect(
      (await people.anonymous.call(conversationOperations.promptUsage, { params: { id: prompt.id } })).status,
    ).toBe(401)
  })
})
