import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConversationSummary } from '../../../domain/conversations.ts'
import type { PromptDetail, PromptSummary } from '../../../domain/prompts.ts'
import { TestClient } from '../../testing/client.ts'
import { addMember, createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { appendMessage, createConversation } from '../conversations/test-fixtures.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

/**
 * Membership is what gives access to a team's shared work: the moment a member is removed or
 * leaves, the team's prompts and conversations are gone for them (no cache, no grace period).
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

type Page = { items: PromptSummary[] }

async function teamWithSharedPrompt() {
  const admin = new TestClient(testApp)
  const member = new TestClient(testApp)
  const adminUser = await admin.signUp()
  const memberUser = await member.signUp()
  const team = await createTeamAs(admin, 'Shared')
  await addMember(testApp, admin, team.id, member)
  const prompt = await createPromptAs(admin, {
    title: 'Team onboarding',
    visibility: 'team',
    teamId: team.id,
  })
  return { admin, member, adminUser, memberUser, team, prompt }
}

describe("a team's prompts", () => {
  it("show up under Team Prompts for members, with the owner's email", async () => {
    const { member, adminUser, prompt } = await teamWithSharedPrompt()
    const list = await member.get<Page>('/api/v1/prompts?scope=team')
    expect(list.body.items.map((p) => [p.title, p.ownerEmail])).toEqual([
      ['Team onboarding', adminUser.email],
    ])
    expect((await member.get<PromptDetail>(`/api/v1/prompts/${prompt.id}`)).status).toBe(200)
  })

  it('disappear for a removed member at once', async () => {
    const { admin, member, memberUser, team, prompt } = await teamWithSharedPrompt()
    expect((await member.get<Page>('/api/v1/prompts?scope=team')).body.items).toHaveLength(1)
    expect((await admin.delete(`/api/v1/teams/${team.id}/members/${memberUser.id}`)).status).toBe(204)
    expect((await member.get<Page>('/api/v1/prompts?scope=team')).body.items).toEqual([])
    expect((await member.get(`/api/v1/prompts/${prompt.id}`)).status).toBe(404)
    expect((await member.get(`/api/v1/prompts/${prompt.id}/versions`)).status).toBe(404)
    const share = await member.post('/api/v1/prompts', {
      title: 'Sneaky',
      body: 'x',
      visibility: 'team',
      teamId: team.id,
    })
    expect(share.status).toBe(400)
  })

  it('disappear for a member who leaves, while their own shared prompts stay with the team', async () => {
    const { admin, member, team, prompt } = await teamWithSharedPrompt()
    const own = await createPromptAs(member, { title: 'By the member', visibility: 'team', teamId: team.id })
    expect((await member.post(`/api/v1/teams/${team.id}/leave`)).status).toBe(204)
    expect((await member.get(`/api/v1/prompts/${prompt.id}`)).status).toBe(404)
    const adminView = await admin.get<Page>('/api/v1/prompts?scope=team')
    expect(adminView.body.items.find((p) => p.id === own.id)?.ownerEmail).toBeNull()
  })
})

describe("a team's conversations", () => {
  async function teamWithConversation() {
    const { admin, member, memberUser, team } = await teamWithSharedPrompt()
    const conversation = await createConversation(admin, { title: 'Launch plan', teamId: team.id })
    return { admin, member, memberUser, team, conversation }
  }
  const teamList = (client: TestClient) =>
    client.get<{ items: ConversationSummary[] }>('/api/v1/conversations?scope=team')

  it('show up under Team Conversations for members, who can write in them', async () => {
    const { member, conversation } = await teamWithConversation()
    expect((await teamList(member)).body.items.map((c) => [c.title, c.teamName])).toEqual([
      ['Launch plan', 'Shared'],
    ])
    await appendMessage(member, conversation.id, { content: { text: 'On it' } })
  })

  it('disappear for a removed member at once, messages included', async () => {
    const { admin, member, memberUser, team, conversation } = await teamWithConversation()
    expect((await admin.delete(`/api/v1/teams/${team.id}/members/${memberUser.id}`)).status).toBe(204)
    expect((await teamList(member)).body.items).toEqual([])
    expect((await member.get(`/api/v1/conversations/${conversation.id}`)).status).toBe(404)
    expect((await member.get(`/api/v1/conversations/${conversation.id}/messages`)).status).toBe(404)
    const write = await member.post(`/api/v1/conversations/${conversation.id}/messages`, {
      content: { text: 'Still here?' },
    })
    expect(write.status).toBe(404)
  })

  it('disappear for a member who leaves', async () => {
    const { member, team, conversation } = await teamWithConversation()
    expect((await member.post(`/api/v1/teams/${team.id}/leave`)).status).toBe(204)
    expect((await teamList(member)).body.items).toEqual([])
    expect((await member.get(`/api/v1/conversations/${conversation.id}`)).status).toBe(404)
  })

  describe('that a removed or departed member owns (review item 3, decision 0008)', () => {
    async function memberOwnsOne() {
      const { admin, member, memberUser, team } = await teamWithSharedPrompt()
      const conversation = await createConversation(member, { title: 'Member plan', teamId: team.id })
      await appendMessage(member, conversation.id, { content: { text: 'Written while a member' } })
      return { admin, member, memberUser, team, conversation }
    }
    const ownList = (client: TestClient) =>
      client.get<{ items: ConversationSummary[] }>('/api/v1/conversations?scope=owner')

    it.each(['removed', 'left'])(
      'stay with the team when the member %s: nothing for the former member',
      async (how) => {
        const { admin, member, memberUser, team, conversation } = await memberOwnsOne()
        if (how === 'removed') {
          expect((await admin.delete(`/api/v1/teams/${team.id}/members/${memberUser.id}`)).status).toBe(204)
        } else {
          expect((await member.post(`/api/v1/teams/${team.id}/leave`)).status).toBe(204)
        }
        await appendMessage(admin, conversation.id, { content: { text: 'Written after they left' } })
        const path = `/api/v1/conversations/${conversation.id}`

        expect((await ownList(member)).body.items).toEqual([])
        expect((await teamList(member)).body.items).toEqual([])
        expect((await member.get(path)).status).toBe(404)
        expect((await member.get(`${path}/messages`)).status).toBe(404)
        expect((await member.post(`${path}/messages`, { content: { text: 'Still mine?' } })).status).toBe(404)
        expect((await member.patch(path, { title: 'Renamed by the former member' })).status).toBe(404)
        expect((await member.delete(path)).status).toBe(404)

        // The team keeps it, and its admins manage it.
        expect((await teamList(admin)).body.items.map((c) => c.id)).toContain(conversation.id)
        const renamed = await admin.patch<{ title: string }>(path, { title: 'Team plan' })
        expect(renamed.body.title).toBe('Team plan')
      },
    )

    it('stay away from the former member, whose own team prompt (and its usage) is out of reach too', async () => {
      const { admin, member, memberUser, team, conversation } = await memberOwnsOne()
      const own = await createPromptAs(member, { title: 'Mine', visibility: 'team', teamId: team.id })
      await appendMessage(admin, conversation.id, {
        content: { text: 'Uses it' },
        attachments: [{ promptId: own.id }],
      })
      expect((await admin.delete(`/api/v1/teams/${team.id}/members/${memberUser.id}`)).status).toBe(204)
      // The team prompt stayed with the team (decision 0242): its usage is a 404 like the prompt.
      expect((await member.get(`/api/v1/prompts/${own.id}/usage`)).status).toBe(404)
      expect((await member.get(`/api/v1/prompts/${own.id}`)).status).toBe(404)
    })

    it('come back with the membership: a member invited again owns it again', async () => {
      const { admin, member, memberUser, team, conversation } = await memberOwnsOne()
      expect((await admin.delete(`/api/v1/teams/${team.id}/members/${memberUser.id}`)).status).toBe(204)
      await addMember(testApp, admin, team.id, member)
      const back = await member.get<{ access: { canManage: boolean } }>(
        `/api/v1/conversations/${conversation.id}`,
      )
      expect(back.body.access.canManage).toBe(true)
    })
  })
})
