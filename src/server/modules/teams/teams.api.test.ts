import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamDetail, TeamMember, TeamSummary } from '../../../domain/teams.ts'
import { installation, teamMembers, teams, users } from '../../db/schema/index.ts'
import { TestClient } from '../../testing/client.ts'
import { addMember, createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

describe('GET /api/v1/teams', () => {
  it('lists the teams the user belongs to with role and member count', async () => {
    const alice = new TestClient(testApp)
    const bob = new TestClient(testApp)
    const a = await alice.signUp()
    const b = await bob.signUp()
    const db = testApp.database.db
    const [team] = await db.insert(teams).values({ name: 'Zeta', createdByUserId: a.id }).returning()
    const [other] = await db.insert(teams).values({ name: 'alpha', createdByUserId: b.id }).returning()
    await db.insert(teamMembers).values([
      { teamId: team!.id, userId: a.id, role: 'admin' },
      { teamId: team!.id, userId: b.id, role: 'member' },
      { teamId: other!.id, userId: b.id, role: 'admin' },
    ])
    const res = await bob.get<{ items: TeamSummary[] }>('/api/v1/teams')
    expect(res.status).toBe(200)
    expect(res.body.items.map((t) => [t.name, t.role, t.memberCount, t.isAdmin])).toEqual([
      ['alpha', 'admin', 1, true],
      ['Zeta', 'member', 2, false],
    ])
    const mine = await alice.get<{ items: TeamSummary[] }>('/api/v1/teams')
    expect(mine.body.items.map((t) => t.name)).toEqual(['Zeta'])
  })

  it('is empty for a user without teams and 401 when signed out', async () => {
    const carol = new TestClient(testApp)
    await carol.signUp()
    expect((await carol.get<{ items: TeamSummary[] }>('/api/v1/teams')).body.items).toEqual([])
    expect((await new TestClient(testApp).get('/api/v1/teams')).status).toBe(401)
  })
})

type ErrorRes = { error: { code: string; message: string; fields?: Record<string, string> } }

describe('creating and renaming a team', () => {
  it('makes the creator its only member and admin', async () => {
    const owner = new TestClient(testApp)
    const me = await owner.signUp()
    const team = await createTeamAs(owner, '  Growth  ')
    expect(team).toMatchObject({ name: 'Growth', role: 'admin', isAdmin: true, memberCount: 1 })
    const detail = await owner.get<TeamDetail>(`/api/v1/teams/${team.id}`)
    expect(detail.body).toMatchObject({
      id: team.id,
      name: 'Growth',
      memberCount: 1,
      pendingInvitationCount: 0,
      role: 'admin',
    })
    const members = await owner.get<{ items: TeamMember[] }>(`/api/v1/teams/${team.id}/members`)
    expect(members.body.items).toEqual([
      { userId: me.id, email: me.email, displayName: null, role: 'admin', joinedAt: expect.any(String) },
    ])
  })

  it('validates the name in the caller language and creates nothing', async () => {
    const owner = new TestClient(testApp, { locale: 'de' })
    await owner.signUp()
    const empty = await owner.post<ErrorRes>('/api/v1/teams', { name: '   ' })
    expect(empty.status).toBe(400)
    expect(empty.body.error).toMatchObject({ code: 'validation', message: 'Teamname ist erforderlich' })
    const long = await owner.post<ErrorRes>('/api/v1/teams', { name: 'x'.repeat(101) })
    expect(long.body.error.fields).toEqual({ name: 'Teamname darf höchstens 100 Zeichen haben' })
    expect((await owner.get<{ items: TeamSummary[] }>('/api/v1/teams')).body.items).toEqual([])
  })

  it('lets admins rename the team; members get "Team admin access required"', async () => {
    const admin = new TestClient(testApp)
    const member = new TestClient(testApp)
    await admin.signUp()
    await member.signUp()
    const team = await createTeamAs(admin, 'Old')
    await addMember(testApp, admin, team.id, member)
    const renamed = await admin.patch<TeamDetail>(`/api/v1/teams/${team.id}`, { name: 'New' })
    expect(renamed.status).toBe(200)
    expect(renamed.body.name).toBe('New')
    const refused = await member.patch<ErrorRes>(`/api/v1/teams/${team.id}`, { name: 'Mine' })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toBe('Team admin access required')
    const invalid = await admin.patch<ErrorRes>(`/api/v1/teams/${team.id}`, { name: '' })
    expect(invalid.body.error.message).toBe('Team name is required')
    expect((await member.get<TeamDetail>(`/api/v1/teams/${team.id}`)).body.name).toBe('New')
  })

  it('answers 404 "Team not found or access denied" for strangers, unknown and malformed ids', async () => {
    const admin = new TestClient(testApp)
    const stranger = new TestClient(testApp)
    await admin.signUp()
    await stranger.signUp()
    const team = await createTeamAs(admin)
    for (const path of [
      `/api/v1/teams/${team.id}`,
      '/api/v1/teams/00000000-0000-4000-8000-000000000000',
      '/api/v1/teams/not-a-uuid',
      `/api/v1/teams/${team.id}/members`,
    ]) {
      const res = await stranger.get<ErrorRes>(path)
      expect(res.status, path).toBe(404)
      expect(res.body.error.message).toBe('Team not found or access denied')
    }
  })
})

describe('members and roles', () => {
  async function teamWithMember() {
    const admin = new TestClient(testApp)
    const member = new TestClient(testApp)
    const a = await admin.signUp()
    const m = await member.signUp()
    const team = await createTeamAs(admin)
    await addMember(testApp, admin, team.id, member)
    return { admin, member, a, m, team }
  }

  /** The installation's first account is the global admin; a client signed in as that account. */
  async function signInAsGlobalAdmin() {
    const global = new TestClient(testApp)
    const [first] = await testApp.database.db.select().from(installation)
    const [firstUser] = await testApp.database.db
      .select()
      .from(users)
      .where(eq(users.id, first!.firstUserId!))
    await global.signIn(firstUser!.email)
    return global
  }

  it('lists members with email, display name, role and joining date, admins first', async () => {
    const { member, a, m, team } = await teamWithMember()
    const res = await member.get<{ items: TeamMember[] }>(`/api/v1/teams/${team.id}/members`)
    expect(res.body.items.map((x) => [x.email, x.role])).toEqual([
      [a.email, 'admin'],
      [m.email, 'member'],
    ])
  })

  it('lets admins change roles and answers the changed member; members may not', async () => {
    const { admin, member, m, team } = await teamWithMember()
    const promoted = await admin.patch<TeamMember>(`/api/v1/teams/${team.id}/members/${m.id}`, {
      role: 'admin',
    })
    expect(promoted.status).toBe(200)
    expect(promoted.body).toMatchObject({ userId: m.id, role: 'admin' })
    const demoted = await member.patch<TeamMember>(`/api/v1/teams/${team.id}/members/${m.id}`, {
      role: 'member',
    })
    expect(demoted.status).toBe(200)
    const refused = await member.patch<ErrorRes>(`/api/v1/teams/${team.id}/members/${m.id}`, {
      role: 'admin',
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toBe('Only team admins can update member roles')
    const bad = await admin.patch<ErrorRes>(`/api/v1/teams/${team.id}/members/${m.id}`, { role: 'owner' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe('Role must be admin or member')
    const nobody = await admin.patch<ErrorRes>(`/api/v1/teams/${team.id}/members/someone-else`, {
      role: 'admin',
    })
    expect(nobody.status).toBe(404)
    expect(nobody.body.error.message).toBe('Not a member of this team')
  })

  it('never demotes the last admin', async () => {
    const { admin, a, team } = await teamWithMember()
    const res = await admin.patch<ErrorRes>(`/api/v1/teams/${team.id}/members/${a.id}`, { role: 'member' })
    expect(res.status).toBe(409)
    expect(res.body.error.message).toBe('A team needs at least one admin. Make another member admin first.')
  })

  it('lets two admins demote each other at the same time without leaving the team without an admin', async () => {
    const { admin, member, a, m, team } = await teamWithMember()
    await admin.patch(`/api/v1/teams/${team.id}/members/${m.id}`, { role: 'admin' })
    const results = await Promise.all([
      admin.patch(`/api/v1/teams/${team.id}/members/${m.id}`, { role: 'member' }),
      member.patch(`/api/v1/teams/${team.id}/members/${a.id}`, { role: 'member' }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 403])
    const [row] = await testApp.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.role, 'admin')))
    expect(row?.n).toBe(1)
  })

  it('lets admins remove members, never themselves; members may not remove', async () => {
    const { admin, member, a, m, team } = await teamWithMember()
    const byMember = await member.delete<ErrorRes>(`/api/v1/teams/${team.id}/members/${a.id}`)
    expect(byMember.status).toBe(403)
    expect(byMember.body.error.message).toBe('Only team admins can remove members')
    const self = await admin.delete<ErrorRes>(`/api/v1/teams/${team.id}/members/${a.id}`)
    expect(self.status).toBe(403)
    expect(self.body.error.message).toBe('Cannot remove yourself from team')
    expect((await admin.delete(`/api/v1/teams/${team.id}/members/${m.id}`)).status).toBe(204)
    const gone = await member.get<ErrorRes>(`/api/v1/teams/${team.id}/members`)
    expect(gone.status).toBe(404)
    expect((await member.get<{ items: TeamSummary[] }>('/api/v1/teams')).body.items).toEqual([])
    const again = await admin.delete<ErrorRes>(`/api/v1/teams/${team.id}/members/${m.id}`)
    expect(again.body.error.message).toBe('Not a member of this team')
  })

  it('lets members leave; the only admin cannot', async () => {
    const { admin, member, team } = await teamWithMember()
    const stuck = await admin.post<ErrorRes>(`/api/v1/teams/${team.id}/leave`)
    expect(stuck.status).toBe(409)
    expect(stuck.body.error.message).toBe('Cannot leave team as the only admin')
    expect((await member.post(`/api/v1/teams/${team.id}/leave`)).status).toBe(204)
    expect((await admin.get<TeamDetail>(`/api/v1/teams/${team.id}`)).body.memberCount).toBe(1)
  })

  it('lets a global admin manage a team they do not belong to, but not leave it', async () => {
    const global = await signInAsGlobalAdmin()
    const { m, team } = await teamWithMember()
    const detail = await global.get<TeamDetail>(`/api/v1/teams/${team.id}`)
    expect(detail.body.role).toBeNull()
    expect((await global.patch(`/api/v1/teams/${team.id}/members/${m.id}`, { role: 'admin' })).status).toBe(
      200,
    )
    const leave = await global.post<ErrorRes>(`/api/v1/teams/${team.id}/leave`)
    expect(leave.status).toBe(404)
    expect(leave.body.error.message).toBe('Not a member of this team')
  })

  it('never removes the last admin, not even for a global admin', async () => {
    // A team admin cannot remove themselves, so only someone from outside (a global admin) could
    // take a team's only admin away.
    const global = await signInAsGlobalAdmin()
    const { admin, a, team } = await teamWithMember()
    const res = await global.delete<ErrorRes>(`/api/v1/teams/${team.id}/members/${a.id}`)
    expect(res.status).toBe(409)
    expect(res.body.error.message).toBe('A team needs at least one admin. Make another member admin first.')
    expect((await admin.get<TeamDetail>(`/api/v1/teams/${team.id}`)).body.role).toBe('admin')
  })
})
