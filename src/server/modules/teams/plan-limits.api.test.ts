import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { invitations, mailOutbox, teamMembers } from '../../db/schema/index.ts'
import { TestClient, uniqueEmail } from '../../testing/client.ts'
import { createTeamAs, invitationLinkFor, inviteAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { checkTeamMemberLimit } from './plan-limits.ts'

// The seam is replaced by a spy here, to show where it is called and what a refusal does; the plans
// work will fill the real function in.
vi.mock('./plan-limits.ts', () => ({ checkTeamMemberLimit: vi.fn() }))
const limit = vi.mocked(checkTeamMemberLimit)
const allow = async () => ({ allowed: true }) as const
const refuse = async () => ({ allowed: false, used: 5, max: 5 }) as const

type ErrorRes = { error: { code: string; message: string; reason?: string } }

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())
beforeEach(() => {
  limit.mockReset()
  limit.mockImplementation(allow)
})

describe('the plan-limit seam (max team members)', () => {
  it('allows everything today', async () => {
    const real = await vi.importActual<typeof import('./plan-limits.ts')>('./plan-limits.ts')
    await expect(real.checkTeamMemberLimit(testApp.database.db, crypto.randomUUID())).resolves.toEqual({
      allowed: true,
    })
  })

  it('is asked by invite, resend and accept, for the team concerned', async () => {
    const admin = new TestClient(testApp)
    await admin.signUp()
    const team = await createTeamAs(admin)
    const invitee = new TestClient(testApp)
    const email = uniqueEmail()
    const invitation = await inviteAs(admin, team.id, email)
    await admin.post(`/api/v1/teams/${team.id}/invitations/${invitation.id}/resend`)
    await invitee.signUp(email)
    const { token } = await invitationLinkFor(testApp, email)
    expect((await invitee.post(`/api/v1/invitations/${token}/accept`)).status).toBe(200)
    expect(limit.mock.calls.map(([, teamId]) => teamId)).toEqual([team.id, team.id, team.id])
  })

  it('refuses an invitation with 403 limit_reached when the plan is full, sending nothing', async () => {
    const admin = new TestClient(testApp)
    await admin.signUp()
    const team = await createTeamAs(admin)
    limit.mockImplementation(refuse)
    const email = uniqueEmail()
    const res = await admin.post<ErrorRes>(`/api/v1/teams/${team.id}/invitations`, { email })
    expect(res.status).toBe(403)
    expect(res.body.error).toMatchObject({
      code: 'forbidden',
      reason: 'limit_reached',
      message: 'Your plan does not allow more members in this team.',
    })
    expect(await testApp.database.db.select().from(invitations).where(eq(invitations.email, email))).toEqual(
      [],
    )
    expect(
      await testApp.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)),
    ).toEqual([])
  })

  it('refuses accepting when the team filled up meanwhile; the invitation stays pending', async () => {
    const admin = new TestClient(testApp)
    await admin.signUp()
    const team = await createTeamAs(admin)
    const invitee = new TestClient(testApp)
    const email = uniqueEmail()
    const invitation = await inviteAs(admin, team.id, email)
    const { token } = await invitationLinkFor(testApp, email)
    await invitee.signUp(email)
    limit.mockImplementation(refuse)
    const res = await invitee.post<ErrorRes>(`/api/v1/invitations/${token}/accept`)
    expect(res.status).toBe(403)
    expect(res.body.error.reason).toBe('limit_reached')
    const [row] = await testApp.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, invitation.id))
    expect(row!.status).toBe('pending')
    expect(
      await testApp.database.db.select().from(teamMembers).where(eq(teamMembers.userId, invitee.user!.id)),
    ).toEqual([])
  })
})
