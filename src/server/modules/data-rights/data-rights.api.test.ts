import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../../domain/api/account.ts'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import { dataRightsOperations } from '../../../domain/api/data-rights.ts'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import type { ExportArchive } from '../../../domain/data-rights.ts'
import {
  accounts,
  auditLog,
  conversations,
  mailOutbox,
  prompts,
  teams,
  users,
} from '../../db/schema/index.ts'
import { createLogger } from '../../log.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { addMember, createTeamAs, latestMailTo } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { appendMessage, createConversation } from '../conversations/test-fixtures.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'
import { runExports } from './exports.ts'

let testApp: TestApp
let globalAdmin: TestClient

beforeAll(async () => {
  testApp = await createTestApp()
  globalAdmin = new TestClient(testApp)
  await globalAdmin.signUp() // the installation's first account, a global admin
})
afterAll(() => testApp.close())

function person(): Promise<TestClient> {
  return TestClient.signedUp(testApp)
}

async function exportOf(client: TestClient): Promise<ExportArchive> {
  const started = await client.call(dataRightsOperations.startExport, {})
  expect(started.status).toBe(201)
  // The build runs after the answer; waiting for the running build is waiting for this one.
  await runExports(testApp.database.db, createLogger('silent'))
  const latest = await client.call(dataRightsOperations.latestExport, {})
  expect(latest.body.export).toMatchObject({ id: started.body.id, status: 'ready' })
  expect(latest.body.export!.done).toBe(latest.body.export!.total)
  const archive = await client.call(dataRightsOperations.downloadExport, { params: { id: started.body.id } })
  expect(archive.status).toBe(200)
  // The declared answer is a plain record; this test reads it as the archive it is.
  return archive.body as unknown as ExportArchive
}

describe('export my data', () => {
  it('holds the profile, every prompt with every version and label, conversations, teams, sessions and keys, once', async () => {
    const owner = await person()
    const team = await createTeamAs(owner, 'Export team')
    const prompt = await createPromptAs(owner, { title: 'Triage', name: 'support/triage', body: 'One' })
    await owner.call(promptOperations.update, {
      params: { id: prompt.id },
      body: { body: 'Two', changelog: 'Second', config: { model: 'x' } },
    })
    await owner.call(promptLabelOperations.set, {
      params: { id: prompt.id },
      body: { label: 'staging', versionId: prompt.currentVersionId! },
    })
    await createPromptAs(owner, { title: 'Shared', visibility: 'team', teamId: team.id })
    const conversation = await createConversation(owner, { title: 'Chat', firstMessage: 'Hello there' })
    await appendMessage(owner, conversation.id, { content: { text: 'Second message' } })
    await owner.call(apiKeyOperations.create, { body: { name: 'ci', scope: 'read' } })

    const archive = await exportOf(owner)
    expect(archive.format).toBe('promptfolio.export/1')
    expect(archive.profile).toMatchObject({ email: owner.user!.email })
    expect(archive.prompts).toHaveLength(2)
    const triage = archive.prompts.find((p) => p.name === 'support/triage')!
    expect(triage.versions.map((v) => [v.version, v.body, v.labels])).toEqual([
      [1, 'One', ['staging']],
      [2, 'Two', ['production', 'latest']],
    ])
    expect(triage.versions[1]).toMatchObject({ changelog: 'Second', config: { model: 'x' } })
    expect(archive.prompts.find((p) => p.title === 'Shared')).toMatchObject({
      visibility: 'team',
      team: 'Export team',
    })
    expect(archive.markdown['prompts/support/triage.md']).toContain('title: "Triage"')
    expect(archive.markdown['prompts/support/triage.md']).toContain('Two')
    const chat = archive.conversations.find((c) => c.title === 'Chat') as {
      messages: { content: { text: string } }[]
    }
    expect(chat.messages.map((m) => m.content.text)).toEqual(['Hello there', 'Second message'])
    expect(archive.teams).toEqual([expect.objectContaining({ name: 'Export team', role: 'admin' })])
    expect(archive.sessions.length).toBeGreaterThan(0)
    expect(archive.apiKeys).toEqual([expect.objectContaining({ name: 'ci', scope: 'read' })])
    expect(archive.audit.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['team.created', 'label.moved', 'api_key.created']),
    )
    // No secret leaves: no session token, no key hash, no password hash.
    const text = JSON.stringify(archive)
    expect(text).not.toMatch(/"token"|secretHash|"password"/)

    const latest = await owner.call(dataRightsOperations.latestExport, {})
    const again = await owner.call(dataRightsOperations.downloadExport, {
      params: { id: latest.body.export!.id },
    })
    expect(again.status).toBe(409)
    expect(errorOf(again).message).toBe('This export was already downloaded; start a new one')
  })

  it('is the owner’s alone: another user’s export is not found', async () => {
    const owner = await person()
    const stranger = await person()
    const started = await owner.call(dataRightsOperations.startExport, {})
    await runExports(testApp.database.db, createLogger('silent'))
    const res = await stranger.call(dataRightsOperations.downloadExport, { params: { id: started.body.id } })
    expect(res.status).toBe(404)
    expect((await stranger.call(dataRightsOperations.latestExport, {})).body.export).toBeNull()
  })

  it("carries team data only while a member: nothing of a former team's, nor what was written there since", async () => {
    const admin = await person()
    const leaver = await person()
    const team = await createTeamAs(admin, 'Left behind')
    await addMember(testApp, admin, team.id, leaver)
    await createPromptAs(leaver, { title: 'Mine, personal' })
    await createPromptAs(leaver, { title: 'Made in the team', visibility: 'team', teamId: team.id })
    const chat = await createConversation(leaver, { title: 'Team chat', teamId: team.id, firstMessage: 'Hi' })
    await createConversation(leaver, { title: 'Personal chat', firstMessage: 'Note to self' })
    const removal = { params: { teamId: team.id, userId: leaver.user!.id } }
    expect((await admin.call(teamOperations.removeMember, removal)).status).toBe(204)
    await appendMessage(admin, chat.id, { content: { text: 'Written after the removal' } })

    const archive = await exportOf(leaver)
    expect(archive.prompts.map((prompt) => prompt.title)).toEqual(['Mine, personal'])
    expect(archive.conversations.map((conversation) => conversation.title)).toEqual(['Personal chat'])
    expect(JSON.stringify(archive)).not.toContain('Written after the removal')
  })

  it('starts one export at a time: a second start returns the one being built', async () => {
    const owner = await person()
    const [a, b] = await Promise.all([
      owner.call(dataRightsOperations.startExport, {}),
      owner.call(dataRightsOperations.startExport, {}),
    ])
    await runExports(testApp.database.db, createLogger('silent'))
    // Either the second start found the first still open, or it started after the first was done.
    if (a.body.id !== b.body.id)
      expect((await owner.call(dataRightsOperations.latestExport, {})).body.export!.status).toBe('ready')
  })
})

describe('delete my account', () => {
  it('asks for the password; a wrong one changes nothing', async () => {
    const me = await person()
    const check = await me.call(dataRightsOperations.deletionCheck, {})
    expect(check.body).toMatchObject({ confirmWith: 'password', soleAdminOf: [], lastGlobalAdmin: false })
    const res = await me.call(dataRightsOperations.deleteAccount, {
      body: { password: 'not my password at all' },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.password).toBe('The password or code is not correct')
    const missing = await me.call(dataRightsOperations.deleteAccount, { body: {} })
    expect(missing.status).toBe(400)
    expect((await me.call(accountOperations.me, {})).status).toBe(200)
  })

  it('removes what was personal, keeps what was shared with a team as from a deleted user, and ends sign-in', async () => {
    const admin = await person()
    const me = await person()
    const email = me.user!.email
    const team = await createTeamAs(admin, 'Keepers')
    await addMember(testApp, admin, team.id, me)
    const personal = await createPromptAs(me, { title: 'Mine only' })
    const shared = await createPromptAs(me, { title: 'For the team', visibility: 'team', teamId: team.id })
    const teamChat = await createConversation(admin, { title: 'Team chat', teamId: team.id })
    const myMessage = await appendMessage(me, teamChat.id, { content: { text: 'My words' } })
    const myChat = await createConversation(me, { title: 'Private chat' })
    expect((await me.call(dataRightsOperations.deletionCheck, {})).body).toMatchObject({
      personalPrompts: 1,
      teamPrompts: 1,
      personalConversations: 1,
    })

    const res = await me.call(dataRightsOperations.deleteAccount, {
      body: { password: 'correct horse battery staple' },
    })
    expect(res.status).toBe(204)

    expect((await me.call(accountOperations.me, {})).status).toBe(401)
    expect((await new TestClient(testApp).signIn(email)).status).toBe(401)
    const db = testApp.database.db
    expect(await db.select().from(prompts).where(eq(prompts.id, personal.id))).toEqual([])
    expect(await db.select().from(conversations).where(eq(conversations.id, myChat.id))).toEqual([])
    const [tombstone] = await db.select().from(users).where(eq(users.id, me.user!.id))
    expect(tombstone).toMatchObject({ name: '', deletedAt: expect.any(Date) })
    expect(tombstone!.email).not.toContain(email)
    expect(await db.select().from(accounts).where(eq(accounts.userId, me.user!.id))).toEqual([])

    const kept = await admin.call(promptOperations.get, { params: { id: shared.id } })
    expect(kept.status).toBe(200)
    expect(kept.body).toMatchObject({ ownerDeleted: true, ownerEmail: null })
    const messages = await admin.call(conversationOperations.messages, { params: { id: teamChat.id } })
    expect(messages.body.items.find((m) => m.id === myMessage.id)).toMatchObject({
      createdByUserId: null,
      authorEmail: null,
      content: { text: 'My words' },
    })
    expect((await latestMailTo(testApp, email)).kind).toBe('account_deleted')
    // The audit trail keeps the events, without the address: the user is only an id now.
    const trail = await db.select().from(auditLog).where(eq(auditLog.actorUserId, me.user!.id))
    expect(trail.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['member.joined', 'account.deleted']),
    )
    expect(trail.every((entry) => entry.actorEmail === null && entry.clientAddress === null)).toBe(true)
    // The address is free again.
    expect((await new TestClient(testApp).signUp(email)).email).toBe(email)
  })

  it('is refused while the user is a team’s only admin, naming the team', async () => {
    const me = await person()
    await createTeamAs(me, 'Only mine')
    const check = await me.call(dataRightsOperations.deletionCheck, {})
    expect(check.body.soleAdminOf.map((t) => t.name)).toEqual(['Only mine'])
    const res = await me.call(dataRightsOperations.deleteAccount, {
      body: { password: 'correct horse battery staple' },
    })
    expect(res.status).toBe(409)
    expect(errorOf(res).message).toContain('“Only mine”')
    expect((await me.call(accountOperations.me, {})).status).toBe(200)
  })

  it('is refused for the last global admin', async () => {
    const check = await globalAdmin.call(dataRightsOperations.deletionCheck, {})
    expect(check.body.lastGlobalAdmin).toBe(true)
    const res = await globalAdmin.call(dataRightsOperations.deleteAccount, {
      body: { password: 'correct horse battery staple' },
    })
    expect(res.status).toBe(409)
    expect(errorOf(res).message).toBe(
      'You are the installation’s last global admin. Make someone else global admin first.',
    )
  })

  it('is confirmed by a mailed code for an account without a password', async () => {
    const me = await person()
    const email = me.user!.email
    const db = testApp.database.db
    await db
      .delete(accounts)
      .where(and(eq(accounts.userId, me.user!.id), eq(accounts.providerId, 'credential')))
    expect((await me.call(dataRightsOperations.deletionCheck, {})).body.confirmWith).toBe('code')
    expect((await me.call(dataRightsOperations.sendDeletionCode, {})).status).toBe(200)
    const mail = await latestMailTo(testApp, email)
    expect(mail.kind).toBe('account_deletion_code')
    const code = mail.text.match(/\b(\d{6})\b/)![1]!
    const wrong = await me.call(dataRightsOperations.deleteAccount, {
      body: { code: code === '000000' ? '111111' : '000000' },
    })
    expect(wrong.status).toBe(400)
    expect(errorOf(wrong).fields?.code).toBe('The password or code is not correct')
    expect((await me.call(dataRightsOperations.deleteAccount, { body: { code } })).status).toBe(204)
    expect((await me.call(accountOperations.me, {})).status).toBe(401)
  })

  it('sends no code to an account that has a password', async () => {
    const me = await person()
    const res = await me.call(dataRightsOperations.sendDeletionCode, {})
    expect(res.status).toBe(409)
    const sent = await testApp.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, me.user!.email))
    expect(sent.filter((m) => m.kind === 'account_deletion_code')).toEqual([])
  })
})

describe('delete a team', () => {
  it('is for team admins, confirmed by the exact name; its prompts and conversations go and members are told', async () => {
    const admin = await person()
    const member = await person()
    const team = await createTeamAs(admin, 'Doomed team')
    const params = { teamId: team.id }
    await addMember(testApp, admin, team.id, member)
    const prompt = await createPromptAs(member, { title: 'Team prompt', visibility: 'team', teamId: team.id })
    const chat = await createConversation(member, { title: 'Team chat', teamId: team.id })
    const own = await createPromptAs(member, { title: 'Private one' })

    const exactName = { params, body: { confirmName: 'Doomed team' } }
    const refused = await member.call(dataRightsOperations.deleteTeam, exactName)
    expect(refused.status).toBe(403)
    const mismatch = await admin.call(dataRightsOperations.deleteTeam, {
      params,
      body: { confirmName: 'doomed team' },
    })
    expect(mismatch.status).toBe(400)
    expect(errorOf(mismatch).fields?.confirmName).toBe('Type the team’s name exactly to confirm')
    const stranger = await person()
    expect((await stranger.call(dataRightsOperations.deleteTeam, exactName)).status).toBe(404)

    expect((await admin.call(dataRightsOperations.deleteTeam, exactName)).status).toBe(204)
    const db = testApp.database.db
    expect(await db.select().from(teams).where(eq(teams.id, team.id))).toEqual([])
    expect(await db.select().from(prompts).where(eq(prompts.id, prompt.id))).toEqual([])
    expect(await db.select().from(conversations).where(eq(conversations.id, chat.id))).toEqual([])
    expect((await member.call(promptOperations.get, { params: { id: own.id } })).status).toBe(200)
    expect((await latestMailTo(testApp, member.user!.email)).kind).toBe('team_deleted')
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.teamId, team.id), eq(auditLog.action, 'team.deleted')))
    expect(entry).toMatchObject({ actorUserId: admin.user!.id, objectId: team.id })
    expect((await member.call(teamOperations.get, { params })).status).toBe(404)
  })
})
