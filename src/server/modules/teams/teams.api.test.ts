import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { teamOperations } from '../../../domain/api/teams.ts'
import { installation, teamMembers, teams, users } from '../../db/schema/index.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
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
    const res = await bob.call(teamOperations.list, {})
    expect(res.status).toBe(200)
    expect(res.body.items.map((t) => [t.name, t.role, t.memberCount, t.isAdmin])).toEqual([
      ['alpha', 'admin', 1, true],
      ['Zeta', 'member', 2, false],
    ])
    const mine = await alice.call(teamOperations.list, {})
    expect(mine.body.items.map((t) => t.name)).toEqual(['Zeta'])
  })

  it('is empty for a user without teams and 401 when signed out', async () => {
    const carol = new TestClient(testApp)
    await carol.signUp()
    expect((await carol.call(teamOperations.list, {})).body.items).toEqual([])
    expect((await new TestClient(testApp).call(teamOperations.list, {})).status).toBe(401)
  })
})

describe('creating and renaming a team', () => {
  it('makes the creator its only member and admin', async () => {
    const owner = new TestClient(testApp)
    const me = await owner.signUp()
    const team = await createTeamAs(owner, '  Growth  ')
    expect(team).toMatchObject({ name: 'Growth', role: 'admin', isAdmin: true, memberCount: 1 })
    const detail = await owner.call(teamOperations.get, { params: { teamId: team.id } })
    expect(detail.body).toMatchObject({
      id: team.id,
      name: 'Growth',
      memberCount: 1,
      pendingInvitationCount: 0,
      role: 'admin',
    })
    const members = await owner.call(teamOperations.members, { params: { teamId: team.id } })
    expect(members.body.items).toEqual([
      { userId: me.id, email: me.email, displayName: null, role: 'admin', joinedAt: expect.any(String) },
    ])
  })

  it('validates the name in the caller language and creates nothing', async () => {
    const owner = new TestClient(testApp, { locale: 'de' })
    await owner.signUp()
    const empty = await owner.call(teamOperations.create, { body: { name: '   ' } })
    expect(empty.status).toBe(400)
    expect(errorOf(empty)).toMatchObject({ code: 'validation', message: 'Teamname ist erforderlich' })
    const long = await owner.call(teamOperations.create, { body: { name: 'x'.repeat(101) } })
    expect(errorOf(long).fields).toEqual({ name: 'Teamname darf höchstens 100 Zeichen haben' })
    expect((await owner.call(teamOperations.list, {})).body.items).toEqual([])
  })

  it('lets admins rename the team; members get "Team admin access required"', async () => {
    const admin = new TestClient(testApp)
    const member = new TestClient(testApp)
    await admin.signUp()
    await member.signUp()
    const team = await createTeamAs(admin, 'Old')
    await addMember(testApp, admin, team.id, member)
    const params = { teamId: team.id }
    const renamed = await admin.call(teamOperations.rename, { params, body: { name: 'New' } })
    expect(renamed.status).toBe(200)
    expect(renamed.body.name).toBe('New')
    const refused = await member.call(teamOperations.rename, { params, body: { name: 'Mine' } })
    expect(refused.status).toBe(403)
    expect(errorOf(refused).message).toBe('Team admin access required')
    const invalid = await admin.call(teamOperations.rename, { params, body: { name: '' } })
    expect(errorOf(invalid).message).toBe('Team name is required')
    expect((await member.call(teamOperations.get, { params })).body.name).toBe('New')
  })

  it('answers 404 "Team not found or access denied" for strangers, unknown and malformed ids', async () => {
    const admin = new TestClient(testApp)
    const stranger = new TestClient(testApp)
    await admin.signUp()
    await stranger.signUp()
    const team = await createTeamAs(admin)
    for (const [operation, teamId] of [
      [teamOperations.get, team.id],
      [teamOperations.get, '00000000-0000-4000-8000-000000000000'],
      [teamOperations.get, 'not-a-uuid'],
      [teamOperations.members, team.id],
    ] as const) {
      const res = await stranger.call(operation, { params: { teamId } })
      expect(res.status, `${operation.id} ${teamId}`).toBe(404)
      expect(errorOf(res).message).toBe('Team not found or access denied')
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
    const res = await member.call(teamOperations.members, { params: { teamId: team.id } })
    expect(res.body.items.map((x) => [x.email, x.role])).toEqual([
      [a.email, 'admin'],
      [m.email, 'member'],
    ])
  })

  it('lets admins change roles and answers the changed member; members may not', async () => {
    const { admin, member, m, team } = await teamWithMember()
    const params = { teamId: team.id, userId: m.id }
    const promoted = await admin.call(teamOperations.changeRole, { params, body: { role: 'admin' } })
    expect(promoted.status).toBe(200)
    expect(promoted.body).toMatchObject({ userId: m.id, role: 'admin' })
    const demoted = await member.call(teamOperations.changeRole, { params, body: { role: 'member' } })
    expect(demoted.status).toBe(200)
    const refused = await member.call(teamOperations.changeRole, { params, body: { role: 'admin' } })
    expect(refused.status).toBe(403)
    expect(errorOf(refused).message).toBe('Only team admins can update member roles')
    const bad = await admin.callUnchecked(teamOperations.changeRole, { params, body: { role: 'owner' } })
    expect(bad.status).toBe(400)
    expect(errorOf(bad).message).toBe('Role must be admin or member')
    const nobody = await admin.call(teamOperations.changeRole, {
      params: { teamId: team.id, userId: 'someone-else' },
      body: { role: 'admin' },
    })
    expect(nobody.status).toBe(404)
    expect(errorOf(nobody).message).toBe('Not a member of this team')
  })

  it('never demotes the last admin', async () => {
    const { admin, a, team } = await teamWithMember()
    const res = await admin.call(teamOperations.changeRole, {
      params: { teamId: team.id, userId: a.id },
      body: { role: 'member' },
    })
    expect(res.status).toBe(409)
    expect(errorOf(res).message).toBe('A team needs at least one admin. Make another member admin first.')
  })

  it('lets two admins demote each other at the same time without leaving the team without an admin', async () => {
    const { admin, member, a, m, team } = await teamWithMember()
    const ofA = { teamId: team.id, userId: a.id }
    const ofM = { teamId: team.id, userId: m.id }
    await admin.call(teamOperations.changeRole, { params: ofM, body: { role: 'admin' } })
    const results = await Promise.all([
      admin.call(teamOperations.changeRole, { params: ofM, body: { role: 'member' } }),
      member.call(teamOperations.changeRole, { params: ofA, body: { role: 'member' } }),
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
    const ofA = { teamId: team.id, userId: a.id }
    const ofM = { teamId: team.id, userId: m.id }
    const byMember = await member.call(teamOperations.removeMember, { params: ofA })
    expect(byMember.status).toBe(403)
    expect(errorOf(byMember).message).toBe('Only team admins can remove members')
    const self = await admin.call(teamOperations.removeMember, { params: ofA })
    expect(self.status).toBe(403)
    expect(errorOf(self).message).toBe('Cannot remove yourself from team')
    expect((await admin.call(teamOperations.removeMember, { params: ofM })).status).toBe(204)
    const gone = await member.call(teamOperations.members, { params: { teamId: team.id } })
    expect(gone.status).toBe(404)
    expect((await member.call(teamOperations.list, {})).body.items).toEqual([])
    const again = await admin.call(teamOperations.removeMember, { params: ofM })
    expect(errorOf(again).message).toBe('Not a member of this team')
  })

  it('lets members leave; the only admin cannot', async () => {
    const { admin, member, team } = await teamWithMember()
    const stuck = await admin.call(teamOperations.leave, { params: { teamId: team.id } })
    expect(stuck.status).toBe(409)
    expect(errorOf(stuck).message).toBe('Cannot leave team as the only admin')
    expect((await member.call(teamOperations.leave, { params: { teamId: team.id } })).status).toBe(204)
    expect((await admin.call(teamOperations.get, { params: { teamId: team.id } })).body.memberCount).toBe(1)
  })

  it('lets a global admin manage a team they do not belong to, but not leave it', async () => {
    const global = await signInAsGlobalAdmin()
    const { m, team } = await teamWithMember()
    const detail = await global.call(teamOperations.get, { params: { teamId: team.id } })
    expect(detail.body.role).toBeNull()
    const params = { teamId: team.id, userId: m.id }
    expect((await global.call(teamOperations.changeRole, { params, body: { role: 'admin' } })).status).toBe(
      200,
    )
    const leave = await global.call(teamOperations.leave, { params: { teamId: team.id } })
    expect(leave.status).toBe(404)
    expect(errorOf(leave).message).toBe('Not a member of this team')
  })

  it('never removes the last admin, not even for a global admin', async () => {
    // A team admin cannot remove themselves, so only someone from outside (a global admin) could
    // take a team's only admin away.
    const global = await signInAsGlobalAdmin()
    const { admin, a, team } = await teamWithMember()
    const res = await global.call(teamOperations.removeMember, { params: { teamId: team.id, userId: a.id } })
    expect(res.status).toBe(409)
    expect(errorOf(res).message).toBe('A team needs at least one admin. Make another member admin first.')
    expect((await admin.call(teamOperations.get, { params: { teamId: team.id } })).body.role).toBe('admin')
  })
})
