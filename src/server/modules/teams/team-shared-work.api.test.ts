import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
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

const removeMember = (admin: TestClient, teamId: string, userId: string) =>
  admin.call(teamOperations.removeMember, { params: { teamId, userId } })

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
  const teamList = (client: TestClient) => client.call(promptOperations.list, { query: { scope: 'team' } })

  it("show up under Team Prompts for members, with the owner's email", async () => {
    const { member, adminUser, prompt } = await teamWithSharedPrompt()
    const list = await teamList(member)
    expect(list.body.items.map((p) => [p.title, p.ownerEmail])).toEqual([
      ['Team onboarding', adminUser.email],
    ])
    expect((await member.call(promptOperations.get, { params: { id: prompt.id } })).status).toBe(200)
  })

  it('disappear for a removed member at once', async () => {
    const { admin, member, memberUser, team, prompt } = await teamWithSharedPrompt()
    expect((await teamList(member)).body.items).toHaveLength(1)
    expect((await removeMember(admin, team.id, memberUser.id)).status).toBe(204)
    expect((await teamList(member)).body.items).toEqual([])
    expect((await member.call(promptOperations.get, { params: { id: prompt.id } })).status).toBe(404)
    expect((await member.call(promptOperations.versions, { params: { id: prompt.id } })).status).toBe(404)
    const share = await member.call(promptOperations.create, {
      body: { title: 'Sneaky', body: 'x', visibility: 'team', teamId: team.id },
    })
    expect(share.status).toBe(400)
  })

  it('disappear for a member who leaves, while their own shared prompts stay with the team', async () => {
    const { admin, member, team, prompt } = await teamWithSharedPrompt()
    const own = await createPromptAs(member, { title: 'By the member', visibility: 'team', teamId: team.id })
    expect((await member.call(teamOperations.leave, { params: { teamId: team.id } })).status).toBe(204)
    expect((await member.call(promptOperations.get, { params: { id: prompt.id } })).status).toBe(404)
    const adminView = await teamList(admin)
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
    client.call(conversationOperations.list, { query: { scope: 'team' } })

  it('show up under Team Conversations for members, who can write in them', async () => {
    const { member, conversation } = await teamWithConversation()
    expect((await teamList(member)).body.items.map((c) => [c.title, c.teamName])).toEqual([
      ['Launch plan', 'Shared'],
    ])
    await appendMessage(member, conversation.id, { content: { text: 'On it' } })
  })

  it('disappear for a removed member at once, messages included', async () => {
    const { admin, member, memberUser, team, conversation } = await teamWithConversation()
    expect((await removeMember(admin, team.id, memberUser.id)).status).toBe(204)
    expect((await teamList(member)).body.items).toEqual([])
    const params = { id: conversation.id }
    expect((await member.call(conversationOperations.get, { params })).status).toBe(404)
    expect((await member.call(conversationOperations.messages, { params })).status).toBe(404)
    const write = await member.call(conversationOperations.appendMessage, {
      params,
      body: { content: { text: 'Still here?' } },
    })
    expect(write.status).toBe(404)
  })

  it('disappear for a member who leaves', async () => {
    const { member, team, conversation } = await teamWithConversation()
    expect((await member.call(teamOperations.leave, { params: { teamId: team.id } })).status).toBe(204)
    expect((await teamList(member)).body.items).toEqual([])
    const params = { id: conversation.id }
    expect((await member.call(conversationOperations.get, { params })).status).toBe(404)
  })

  describe('that a removed or departed member owns (review item 3, decision 0008)', () => {
    async function memberOwnsOne() {
      const { admin, member, memberUser, team } = await teamWithSharedPrompt()
      const conversation = await createConversation(member, { title: 'Member plan', teamId: team.id })
      await appendMessage(member, conversation.id, { content: { text: 'Written while a member' } })
      return { admin, member, memberUser, team, conversation }
    }
    const ownList = (client: TestClient) =>
      client.call(conversationOperations.list, { query: { scope: 'owner' } })

    it.each(['removed', 'left'])(
      'stay with the team when the member %s: nothing for the former member',
      async (how) => {
        const { admin, member, memberUser, team, conversation } = await memberOwnsOne()
        if (how === 'removed') {
          expect((await removeMember(admin, team.id, memberUser.id)).status).toBe(204)
        } else {
          expect((await member.call(teamOperations.leave, { params: { teamId: team.id } })).status).toBe(204)
        }
        await appendMessage(admin, conversation.id, { content: { text: 'Written after they left' } })
        const params = { id: conversation.id }

        expect((await ownList(member)).body.items).toEqual([])
        expect((await teamList(member)).body.items).toEqual([])
        expect((await member.call(conversationOperations.get, { params })).status).toBe(404)
        expect((await member.call(conversationOperations.messages, { params })).status).toBe(404)
        const body = { content: { text: 'Still mine?' } }
        expect((await member.call(conversationOperations.appendMessage, { params, body })).status).toBe(404)
        const rename = { title: 'Renamed by the former member' }
        expect((await member.call(conversationOperations.update, { params, body: rename })).status).toBe(404)
        expect((await member.call(conversationOperations.delete, { params })).status).toBe(404)

        // The team keeps it, and its admins manage it.
        expect((await teamList(admin)).body.items.map((c) => c.id)).toContain(conversation.id)
        const renamed = await admin.call(conversationOperations.update, {
          params,
          body: { title: 'Team plan' },
        })
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
      expect((await removeMember(admin, team.id, memberUser.id)).status).toBe(204)
      // The team prompt stayed with the team (decision 0242): its usage is a 404 like the prompt.
      expect((await member.call(conversationOperations.promptUsage, { params: { id: own.id } })).status).toBe(
        404,
      )
      expect((await member.call(promptOperations.get, { params: { id: own.id } })).status).toBe(404)
    })

    it('come back with the membership: a member invited again owns it again', async () => {
      const { admin, member, memberUser, team, conversation } = await memberOwnsOne()
      expect((await removeMember(admin, team.id, memberUser.id)).status).toBe(204)
      await addMember(testApp, admin, team.id, member)
      const back = await member.call(conversationOperations.get, { params: { id: conversation.id } })
      expect(back.body.access.canManage).toBe(true)
    })
  })
})
