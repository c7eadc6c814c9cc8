import { and, asc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { auditOperations } from '../../../domain/api/audit.ts'
import { authOperations } from '../../../domain/api/auth.ts'
import { planOperations } from '../../../domain/api/plans.ts'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import type { AuditAction, AuditEntry, globalAuditListQuery } from '../../../domain/audit.ts'
import type { Page } from '../../../domain/cursor.ts'
import { queryRows } from '../../db/rows.ts'
import { auditLog } from '../../db/schema/index.ts'
import {
  DEFAULT_PASSWORD,
  errorOf,
  keyClient,
  keyPairAuthorization,
  TestClient,
  uniqueEmail,
} from '../../testing/client.ts'
import { addMember, createTeamAs, invitationLinkFor, inviteAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

let testApp: TestApp
let globalAdmin: TestClient
let teamAdmin: TestClient
let member: TestClient
let stranger: TestClient
let teamId: string

const ADMIN_IP = '203.0.113.7'

beforeAll(async () => {
  testApp = await createTestApp()
  globalAdmin = new TestClient(testApp)
  await globalAdmin.signUp()
  teamAdmin = new TestClient(testApp, { ip: ADMIN_IP })
  member = new TestClient(testApp)
  stranger = new TestClient(testApp)
  await teamAdmin.signUp()
  await member.signUp()
  await stranger.signUp()
  teamId = (await createTeamAs(teamAdmin, 'Auditors')).id
  await addMember(testApp, teamAdmin, teamId, member)
})
afterAll(() => testApp.close())

/** The entries of one action, oldest first, straight from the table. */
async function entries(action: AuditAction, objectId?: string) {
  return testApp.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), objectId ? eq(auditLog.objectId, objectId) : undefined))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id))
}

async function count(): Promise<number> {
  return testApp.database.db.$count(auditLog)
}

describe('the audit log records', () => {
  it('team created and renamed, with who, the team, before and after, and the client address', async () => {
    const team = await createTeamAs(teamAdmin, 'Before')
    const [created] = await entries('team.created', team.id)
    expect(created).toMatchObject({
      actorKind: 'user',
      actorUserId: teamAdmin.user!.id,
      actorEmail: teamAdmin.user!.email,
      objectType: 'team',
      teamId: team.id,
      after: { name: 'Before' },
      clientAddress: ADMIN_IP,
    })
    expect(
      (await teamAdmin.call(teamOperations.rename, { params: { teamId: team.id }, body: { name: 'After' } }))
        .status,
    ).toBe(200)
    const [renamed] = await entries('team.renamed', team.id)
    expect(renamed).toMatchObject({ before: { name: 'Before' }, after: { name: 'After' }, teamId: team.id })
  })

  it('member invited, joined, role changed and removed; invitation revoked', async () => {
    const other = new TestClient(testApp)
    await other.signUp()
    const invitation = await inviteAs(teamAdmin, teamId, other.user!.email)
    expect((await entries('member.invited', invitation.id))[0]).toMatchObject({
      teamId,
      objectType: 'invitation',
      after: { email: other.user!.email, role: 'member' },
    })
    const { token } = await invitationLinkFor(testApp, other.user!.email)
    expect((await other.call(teamOperations.acceptInvitation, { params: { token } })).status).toBe(200)
    expect((await entries('member.joined', other.user!.id))[0]).toMatchObject({
      actorUserId: other.user!.id,
      teamId,
      after: { role: 'member', invitationId: invitation.id },
    })
    const params = { teamId, userId: other.user!.id }
    expect(
      (await teamAdmin.call(teamOperations.changeRole, { params, body: { role: 'admin' } })).status,
    ).toBe(200)
    expect((await entries('member.role_changed', other.user!.id))[0]).toMatchObject({
      before: { role: 'member' },
      after: { role: 'admin' },
    })
    expect((await teamAdmin.call(teamOperations.removeMember, { params })).status).toBe(204)
    expect((await entries('member.removed', other.user!.id))[0]).toMatchObject({
      actorUserId: teamAdmin.user!.id,
      before: { role: 'admin', email: other.user!.email },
    })
    const pending = await inviteAs(teamAdmin, teamId, uniqueEmail('revoked'))
    const revoke = await teamAdmin.call(teamOperations.revokeInvitation, {
      params: { teamId, invitationId: pending.id },
    })
    expect(revoke.status).toBe(204)
    expect((await entries('invitation.revoked', pending.id))[0]).toMatchObject({
      teamId,
      after: { status: 'revoked' },
    })
  })

  it('prompt deleted and label moved, with the team of a team prompt', async () => {
    const prompt = await createPromptAs(teamAdmin, { title: 'Doomed', visibility: 'team', teamId })
    const params = { id: prompt.id }
    const version = prompt.currentVersionId!
    const moved = await teamAdmin.call(promptLabelOperations.set, {
      params,
      body: { label: 'staging', versionId: version },
    })
    expect(moved.status).toBe(200)
    const staging = (await entries('label.moved', prompt.id)).filter((row) => row.after?.label === 'staging')
    expect(staging).toHaveLength(1)
    expect(staging[0]).toMatchObject({
      teamId,
      objectType: 'label',
      before: { label: 'staging', version: null },
      after: { label: 'staging', version: 1 },
    })
    expect((await teamAdmin.call(promptOperations.delete, { params })).status).toBe(204)
    expect((await entries('prompt.deleted', prompt.id))[0]).toMatchObject({
      teamId,
      before: { title: 'Doomed', visibility: 'team' },
    })
  })

  it('a new prompt is recorded as created, not as its first label moved from nowhere', async () => {
    const prompt = await createPromptAs(teamAdmin, { title: 'Fresh', visibility: 'team', teamId })
    expect(await entries('label.moved', prompt.id)).toEqual([])
    const [created] = await entries('prompt.created', prompt.id)
    expect(created).toMatchObject({
      actorUserId: teamAdmin.user!.id,
      objectType: 'prompt',
      teamId,
      after: { name: prompt.name, type: 'text', versions: 1, labels: ['production'] },
    })
    // A later move is still a label move.
    const moved = await teamAdmin.call(promptLabelOperations.set, {
      params: { id: prompt.id },
      body: { label: 'staging', versionId: prompt.currentVersionId! },
    })
    expect(moved.status).toBe(200)
    expect((await entries('label.moved', prompt.id)).map((row) => row.after?.label)).toEqual(['staging'])
  })

  it('a prompt created through the Langfuse API is recorded as created with its labels', async () => {
    const key = await teamAdmin.call(apiKeyOperations.create, {
      body: { name: 'deploy', scope: 'read_write', teamId },
    })
    const basic = keyPairAuthorization(key.body)
    const post = (labels: string[]) =>
      new TestClient(testApp).request('POST', '/api/public/v2/prompts', {
        body: { name: 'langfuse-made', prompt: 'Hi', labels },
        headers: { Authorization: basic },
      })
    expect((await post(['production', 'staging'])).status).toBe(201)
    const [created] = (await entries('prompt.created')).filter((row) => row.after?.name === 'langfuse-made')
    expect(created).toMatchObject({
      actorKind: 'api_key',
      actorApiKeyId: key.body.id,
      teamId,
      after: { versions: 1, labels: ['production', 'staging'] },
    })
    expect(await entries('label.moved', created!.objectId!)).toEqual([])
    // The second version's labels move from version 1: those are recorded.
    expect((await post(['production'])).status).toBe(201)
    expect(await entries('label.moved', created!.objectId!)).toMatchObject([
      { before: { label: 'production', version: 1 }, after: { label: 'production', version: 2 } },
    ])
  })

  it('API key created and revoked; a key acting is recorded as the key', async () => {
    const created = await stranger.call(apiKeyOperations.create, {
      body: { name: 'CI', scope: 'read_write' },
    })
    expect(created.status).toBe(201)
    const [entry] = await entries('api_key.created', created.body.id)
    expect(entry).toMatchObject({
      actorUserId: stranger.user!.id,
      after: { name: 'CI', scope: 'read_write' },
    })
    expect(JSON.stringify(entry)).not.toContain(created.body.secretKey)
    // The key itself moves a label: the entry names the key.
    const prompt = await createPromptAs(stranger, { title: 'Keyed' })
    const byKey = await keyClient(testApp, `Bearer ${created.body.secretKey}`).call(
      promptLabelOperations.set,
      {
        params: { id: prompt.id },
        body: { label: 'beta', versionId: prompt.currentVersionId! },
      },
    )
    expect(byKey.status).toBe(200)
    const beta = (await entries('label.moved', prompt.id)).filter((row) => row.after?.label === 'beta')
    expect(beta[0]).toMatchObject({
      actorKind: 'api_key',
      actorApiKeyId: created.body.id,
      actorUserId: stranger.user!.id,
    })
    expect((await stranger.call(apiKeyOperations.revoke, { params: { id: created.body.id } })).status).toBe(
      204,
    )
    expect((await entries('api_key.revoked', created.body.id))[0]).toMatchObject({
      before: { name: 'CI' },
    })
  })

  it('plan changed by the user and by a global admin', async () => {
    const chose = await stranger.call(planOperations.choose, { body: { plan: 'free' } })
    expect(chose.status).toBe(200)
    const mine = await entries('plan.changed', stranger.user!.id)
    expect(mine.at(-1)).toMatchObject({
      actorUserId: stranger.user!.id,
      before: { context: 'personal', plan: null },
      after: { context: 'personal', plan: 'free' },
    })
    const set = await globalAdmin.call(planOperations.adminSetPlan, {
      body: { context: 'team', subjectId: teamId, plan: 'team' },
    })
    expect(set.status).toBe(200)
    expect((await entries('plan.changed', teamId)).at(-1)).toMatchObject({
      actorUserId: globalAdmin.user!.id,
      teamId,
      after: { context: 'team', plan: 'team' },
    })
  })

  it('sign-in success and failure, with the address tried and how', async () => {
    const client = new TestClient(testApp, { ip: '198.51.100.4' })
    const wrong = await client.signIn(member.user!.email, 'not the password at all')
    expect(wrong.status).toBe(401)
    const failed = (await entries('auth.sign_in.failed')).at(-1)
    expect(failed).toMatchObject({
      actorKind: 'anonymous',
      actorUserId: null,
      actorEmail: member.user!.email,
      objectType: 'user',
      objectId: member.user!.id,
      clientAddress: '198.51.100.4',
      after: { method: 'password', reason: 'invalid_credentials' },
    })
    expect((await client.signIn(member.user!.email)).status).toBe(200)
    const [succeeded] = (await entries('auth.sign_in.succeeded')).filter(
      (row) => row.actorUserId === member.user!.id && row.clientAddress === '198.51.100.4',
    )
    expect(succeeded).toMatchObject({ objectType: 'session', after: { method: 'password' } })
  })

  it('sign-out everywhere and a password reset', async () => {
    const user = new TestClient(testApp, { ip: '192.0.2.44' })
    const email = (await user.signUp()).email
    expect((await user.post('/api/auth/revoke-other-sessions')).status).toBe(200)
    expect((await entries('auth.sign_out_everywhere', user.user!.id))[0]).toMatchObject({
      actorUserId: user.user!.id,
      clientAddress: '192.0.2.44',
    })
    const reset = await new TestClient(testApp, { ip: '192.0.2.45' }).call(authOperations.directReset, {
      body: {
        email,
        currentPassword: DEFAULT_PASSWORD,
        newPassword: 'a brand new passphrase 2026',
        confirmPassword: 'a brand new passphrase 2026',
      },
    })
    expect(reset.status).toBe(200)
    expect((await entries('auth.password_reset', user.user!.id))[0]).toMatchObject({
      actorUserId: user.user!.id,
      actorEmail: email,
      clientAddress: '192.0.2.45',
      after: { method: 'direct_reset', sessionsEnded: true },
    })
  })
})

describe('a failed or refused action leaves no entry', () => {
  it('refusals and conflicts write nothing', async () => {
    const before = await count()
    // A member may not rename (403), nobody removes the last admin (409), nor invites a member twice.
    expect(
      (await member.call(teamOperations.rename, { params: { teamId }, body: { name: 'Mine now' } })).status,
    ).toBe(403)
    const lastAdmin = await teamAdmin.call(teamOperations.removeMember, {
      params: { teamId, userId: teamAdmin.user!.id },
    })
    expect(lastAdmin.status).toBe(403)
    const solo = await createTeamAs(stranger, 'Solo')
    const afterCreate = await count()
    expect(afterCreate).toBe(before + 1)
    expect((await stranger.call(teamOperations.leave, { params: { teamId: solo.id } })).status).toBe(409)
    const twice = await teamAdmin.call(teamOperations.invite, {
      params: { teamId },
      body: { email: member.user!.email },
    })
    expect(twice.status).toBe(409)
    expect(
      (await stranger.call(apiKeyOperations.revoke, { params: { id: crypto.randomUUID() } })).status,
    ).toBe(404)
    expect((await stranger.call(planOperations.choose, { body: { plan: 'free' } })).status).toBe(409)
    expect(await count()).toBe(afterCreate)
  })

  it('a refused sign-out everywhere or password reset writes no entry of its kind', async () => {
    const signOuts = (await entries('auth.sign_out_everywhere')).length
    expect((await new TestClient(testApp).post('/api/auth/revoke-other-sessions')).status).toBe(401)
    expect(await entries('auth.sign_out_everywhere')).toHaveLength(signOuts)
    const resets = (await entries('auth.password_reset')).length
    const refused = await new TestClient(testApp).call(authOperations.directReset, {
      body: {
        email: member.user!.email,
        currentPassword: 'not the current password',
        newPassword: 'a brand new passphrase 2026',
        confirmPassword: 'a brand new passphrase 2026',
      },
    })
    expect(refused.status).toBe(401)
    expect(await entries('auth.password_reset')).toHaveLength(resets)
    // What is recorded instead: the failed attempt.
    expect((await entries('auth.sign_in.failed')).at(-1)).toMatchObject({
      actorEmail: member.user!.email,
      after: { method: 'direct_reset', reason: 'invalid_credentials' },
    })
  })

  it('an action whose transaction fails after the entry was written leaves neither', async () => {
    const prompt = await createPromptAs(stranger, { title: 'Kept' })
    const params = { id: prompt.id }
    const before = await count()
    // A trigger makes the prompt's delete itself fail, after the audit entry went in.
    await testApp.database.db.execute(sql`
      CREATE FUNCTION refuse_prompt_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'no deleting today'; END $$`)
    await testApp.database.db.execute(
      sql`CREATE TRIGGER refuse_prompt_delete BEFORE DELETE ON prompts FOR EACH ROW EXECUTE FUNCTION refuse_prompt_delete()`,
    )
    try {
      const res = await stranger.call(promptOperations.delete, { params })
      expect(res.status).toBe(500)
    } finally {
      await testApp.database.db.execute(sql`DROP TRIGGER refuse_prompt_delete ON prompts`)
      await testApp.database.db.execute(sql`DROP FUNCTION refuse_prompt_delete()`)
    }
    expect(await count()).toBe(before)
    expect(await entries('prompt.deleted', prompt.id)).toEqual([])
    expect((await stranger.call(promptOperations.get, { params })).status).toBe(200)
  })

  it('the table refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = testApp.database.db
    await expect(db.execute(sql`UPDATE audit_log SET action = 'team.created'`)).rejects.toThrow()
    await expect(db.execute(sql`DELETE FROM audit_log`)).rejects.toThrow()
    await expect(db.execute(sql`TRUNCATE audit_log`)).rejects.toThrow()
    const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_log`)
    expect(row!.n).toBeGreaterThan(0)
  })
})

describe('reading the audit log', () => {
  const list = (client: TestClient, query: z.input<typeof globalAuditListQuery> = {}) =>
    client.call(auditOperations.list, { query })
  const teamList = (client: TestClient) => client.call(auditOperations.teamList, { params: { teamId } })

  it('global admins see every entry, newest first, filtered by action, actor, team and time', async () => {
    const all = await list(globalAdmin, { limit: 200 })
    expect(all.status).toBe(200)
    const times = all.body.items.map((item) => item.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
    expect(new Set(all.body.items.map((item) => item.teamId))).toContain(null)
    const renamed = await list(globalAdmin, { action: 'team.renamed' })
    expect(renamed.body.items.length).toBeGreaterThan(0)
    expect(renamed.body.items.every((item) => item.action === 'team.renamed')).toBe(true)
    const byActor = await list(globalAdmin, { actor: member.user!.email.toUpperCase() })
    expect(byActor.body.items.length).toBeGreaterThan(0)
    expect(byActor.body.items.every((item) => item.actorEmail === member.user!.email)).toBe(true)
    const byId = await list(globalAdmin, { actor: member.user!.id })
    expect(byId.body.items.every((item) => item.actorUserId === member.user!.id)).toBe(true)
    const byTeam = await list(globalAdmin, { teamId })
    expect(byTeam.body.items.every((item) => item.teamId === teamId)).toBe(true)
    const future = await list(globalAdmin, { from: new Date(Date.now() + 3_600_000).toISOString() })
    expect(future.body.items).toEqual([])
    const past = await list(globalAdmin, { to: '2000-01-01T00:00:00Z' })
    expect(past.body.items).toEqual([])
  })

  it('offers global admins every team by name for the team filter, and no one else', async () => {
    const other = await createTeamAs(stranger, 'Zebra crossing')
    const teams = await globalAdmin.call(auditOperations.teams, {})
    expect(teams.status).toBe(200)
    const names = teams.body.items.map((team) => team.name)
    expect(teams.body.items).toContainEqual({ id: teamId, name: 'Auditors' })
    expect(teams.body.items).toContainEqual({ id: other.id, name: 'Zebra crossing' })
    expect(names.indexOf('Auditors')).toBeLessThan(names.indexOf('Zebra crossing'))
    expect((await teamAdmin.call(auditOperations.teams, {})).status).toBe(403)
    expect((await new TestClient(testApp).call(auditOperations.teams, {})).status).toBe(401)
  })

  it('pages by cursor without gaps or repeats', async () => {
    const all = await list(globalAdmin, { limit: 200 })
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(globalAdmin, {
        limit: 3,
        cursor: cursor ?? undefined,
      })
      expect(page.status).toBe(200)
      seen.push(...page.body.items.map((item) => item.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(all.body.items.map((item) => item.id))
    expect((await list(globalAdmin, { cursor: 'nonsense' })).status).toBe(400)
  })

  it('team admins see their team’s entries only', async () => {
    const res = await teamList(teamAdmin)
    expect(res.status).toBe(200)
    expect(res.body.items.length).toBeGreaterThan(0)
    expect(res.body.items.every((item) => item.teamId === teamId)).toBe(true)
    const actions = new Set(res.body.items.map((item) => item.action))
    expect(actions).toContain('member.invited')
    expect(actions).toContain('member.joined')
    // A teamId filter cannot widen a team's list to another team.
    const other = await createTeamAs(stranger, 'Elsewhere')
    const widened = await teamAdmin.callUnchecked(auditOperations.teamList, {
      params: { teamId },
      query: { teamId: other.id },
    })
    expect((widened.body as Page<AuditEntry>).items.every((item) => item.teamId === teamId)).toBe(true)
  })

  it('refuses the anonymous (401), others (403) and strangers to a team (404)', async () => {
    const anonymous = new TestClient(testApp)
    expect((await list(anonymous)).status).toBe(401)
    expect((await teamList(anonymous)).status).toBe(401)
    const refused = await list(teamAdmin)
    expect(refused.status).toBe(403)
    expect(errorOf(refused).message).toBe('Global admin access required')
    expect((await teamAdmin.call(auditOperations.export, {})).status).toBe(403)
    const asMember = await teamList(member)
    expect(asMember.status).toBe(403)
    expect(errorOf(asMember).message).toBe('Team admin access required')
    expect((await teamList(stranger)).status).toBe(404)
    expect((await stranger.call(auditOperations.teamExport, { params: { teamId } })).status).toBe(404)
    // A global admin may read any team's entries.
    expect((await teamList(globalAdmin)).status).toBe(200)
  })

  it('refuses malformed filters with 400', async () => {
    for (const query of [{ action: 'nope' }, { from: 'yesterday' }, { teamId: '12' }]) {
      expect((await globalAdmin.callUnchecked(auditOperations.list, { query })).status).toBe(400)
    }
  })

  it('exports the same filters as CSV, escaped and safe to open in a spreadsheet', async () => {
    const team = await createTeamAs(teamAdmin, '=HYPERLINK("http://evil","x"),1')
    const res = await teamAdmin.call(auditOperations.teamExport, {
      params: { teamId: team.id },
      query: { action: 'team.created' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ rowCount: 1, truncated: false })
    expect(res.body.filename).toMatch(/^audit-log-team-[0-9a-f]{8}-\d{4}-\d{2}-\d{2}\.csv$/)
    const lines = res.body.csv.trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'created_at,action,actor_kind,actor_email,actor_user_id,actor_api_key_id,object_type,object_id,team_id,client_address,before,after',
    )
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain(',team.created,user,')
    expect(lines[1]).toContain('"{""name"":""=HYPERLINK(\\""http://evil\\"",\\""x\\""),1""}"')
    const global = await globalAdmin.call(auditOperations.export, { query: { action: 'member.joined' } })
    expect(global.status).toBe(200)
    expect(global.body.rowCount).toBeGreaterThan(0)
    expect(
      global.body.csv
        .split('\r\n')
        .slice(1, -1)
        .every((line) => line.includes(',member.joined,')),
    ).toBe(true)
  })
})
