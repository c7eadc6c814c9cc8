import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { teamOperations } from '../../../domain/api/teams.ts'
import { invitations, profiles, rateLimits, teamMembers } from '../../db/schema/index.ts'
import { unlinkable } from '../../mail/render.ts'
import { errorOf, TestClient, uniqueEmail } from '../../testing/client.ts'
import { createTeamAs, invitationLinkFor, inviteAs, latestMailTo } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { hashInvitationToken } from './invitation-token.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

async function adminWithTeam(locale = 'en') {
  const admin = new TestClient(testApp, { locale })
  await admin.signUp()
  const team = await createTeamAs(admin, 'Research')
  return { admin, team }
}

const db = () => testApp.database.db

describe('inviting by email', () => {
  it('stores a pending 7-day invitation with only the hash of a 256-bit token, and queues the mail', async () => {
    const { admin, team } = await adminWithTeam()
    const email = uniqueEmail('invitee')
    const res = await admin.call(teamOperations.invite, {
      params: { teamId: team.id },
      body: { email: `  ${email.toUpperCase()} ` },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      teamId: team.id,
      email,
      role: 'member',
      status: 'pending',
      invitedByEmail: admin.user!.email,
    })
    expect(JSON.stringify(res.body)).not.toMatch(/token/i)
    const validDays = (Date.parse(res.body.expiresAt) - Date.now()) / 86_400_000
    expect(validDays).toBeGreaterThan(6.99)
    expect(validDays).toBeLessThanOrEqual(7)

    const { url, token } = await invitationLinkFor(testApp, email)
    expect(url).toBe(`${testApp.config.appUrl}/invite/${token}`)
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    const [row] = await db().select().from(invitations).where(eq(invitations.id, res.body.id))
    expect(row!.tokenHash).toBe(hashInvitationToken(token))
    expect(row!.tokenHash).not.toContain(token)

    const mail = await latestMailTo(testApp, email)
    expect(mail.kind).toBe('team_invitation')
    expect(mail.subject).toBe('You are invited to a team on Promptfolio')
    expect(mail.text).toContain('Team: "Research"')
    expect(mail.text).toContain(`Invited by: "${admin.user!.email}"`)
    expect(mail.text).toContain('Role: "Member"')
    expect(mail.html).toContain(`href="${url}"`)
  })

  it('builds the link from APP_URL, never from the Host header', async () => {
    const { admin, team } = await adminWithTeam()
    const email = uniqueEmail()
    const res = await admin.call(
      teamOperations.invite,
      { params: { teamId: team.id }, body: { email } },
      { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' },
    )
    expect(res.status).toBe(201)
    const { url } = await invitationLinkFor(testApp, email)
    expect(url.startsWith(`${testApp.config.appUrl}/invite/`)).toBe(true)
    expect((await latestMailTo(testApp, email)).html).not.toContain('evil.example')
  })

  it("writes the mail in the invitee's profile language, else in the inviter's", async () => {
    const { admin, team } = await adminWithTeam('de')
    const stranger = uniqueEmail()
    await inviteAs(admin, team.id, stranger)
    expect((await latestMailTo(testApp, stranger)).subject).toBe('Einladung in ein Team auf Promptfolio')

    const english = new TestClient(testApp)
    const user = await english.signUp()
    await inviteAs(admin, team.id, user.email, 'admin')
    const mail = await latestMailTo(testApp, user.email)
    expect(mail.subject).toBe('You are invited to a team on Promptfolio')
    expect(mail.text).toContain('Role: "Admin"')

    const german = new TestClient(testApp)
    const deUser = await german.signUp()
    await db().update(profiles).set({ preferredLocale: 'de' }).where(eq(profiles.userId, deUser.id))
    const { admin: englishAdmin, team: other } = await adminWithTeam('en')
    await inviteAs(englishAdmin, other.id, deUser.email)
    expect((await latestMailTo(testApp, deUser.email)).text).toContain('Rolle: "Mitglied"')
  })

  it('validates the email in the caller language and queues nothing', async () => {
    const { admin, team } = await adminWithTeam()
    const params = { teamId: team.id }
    const empty = await admin.call(teamOperations.invite, { params, body: { email: '   ' } })
    expect(empty.status).toBe(400)
    expect(errorOf(empty).message).toBe('Please enter an email address')
    const bad = await admin.call(teamOperations.invite, { params, body: { email: 'nope' } })
    expect(errorOf(bad).fields).toEqual({ email: 'Please enter a valid email address' })
    const role = await admin.callUnchecked(teamOperations.invite, {
      params,
      body: { email: uniqueEmail(), role: 'owner' },
    })
    expect(errorOf(role).fields).toEqual({ role: 'Role must be admin or member' })
    const german = new TestClient(testApp, { locale: 'de' })
    await german.signIn(admin.user!.email)
    const de = await german.call(teamOperations.invite, { params, body: { email: '' } })
    expect(errorOf(de).message).toBe('Bitte gib eine E-Mail-Adresse ein')
    const open = await admin.call(teamOperations.invitations, { params })
    expect(open.body.items).toEqual([])
  })

  it('refuses a second pending invitation and inviting a member', async () => {
    const { admin, team } = await adminWithTeam()
    const params = { teamId: team.id }
    const email = uniqueEmail()
    await inviteAs(admin, team.id, email)
    const twice = await admin.call(teamOperations.invite, { params, body: { email } })
    expect(twice.status).toBe(409)
    expect(errorOf(twice).message).toBe('User already invited to this team')
    const self = await admin.call(teamOperations.invite, { params, body: { email: admin.user!.email } })
    expect(self.status).toBe(409)
    expect(errorOf(self).message).toBe('Already a member of this team')
  })

  it('lets only team admins invite; members get the spec message', async () => {
    const { admin, team } = await adminWithTeam()
    const member = new TestClient(testApp)
    const m = await member.signUp()
    await inviteAs(admin, team.id, m.email)
    const { token } = await invitationLinkFor(testApp, m.email)
    await member.call(teamOperations.acceptInvitation, { params: { token } })
    const res = await member.call(teamOperations.invite, {
      params: { teamId: team.id },
      body: { email: uniqueEmail() },
    })
    expect(res.status).toBe(403)
    expect(errorOf(res).message).toBe('Only team admins can invite members')
  })

  it('rate limits invitations per inviter (429 with the seconds to wait)', async () => {
    const { admin, team } = await adminWithTeam()
    await inviteAs(admin, team.id, uniqueEmail())
    // Use up this hour's allowance (50 per hour, scaled by the suite's multiplier).
    await db()
      .update(rateLimits)
      .set({ count: 50 * testApp.config.rateLimitMultiplier })
      .where(eq(rateLimits.key, `team-invite:user:${admin.user!.id}`))
    const email = uniqueEmail()
    const res = await admin.call(teamOperations.invite, { params: { teamId: team.id }, body: { email } })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500)
    expect(errorOf(res).message).toMatch(/^Too many invitations sent\. Please wait [\d,]+ seconds/)
    await expect(latestMailTo(testApp, email)).rejects.toThrow(/no mail/)
  })
})

describe("the invitation mail carries the inviter's words only as data (review item 11)", () => {
  // Longer than the 60 characters a mail shows of it.
  const phishing = 'Your account is locked! Sign in at https://evil.example at once to keep it'

  it('shows the team name as a labelled value, never in the subject or as the first line', async () => {
    const admin = new TestClient(testApp)
    await admin.signUp()
    const team = await createTeamAs(admin, phishing)
    const email = uniqueEmail('phished')
    await inviteAs(admin, team.id, email)
    const mail = await latestMailTo(testApp, email)
    expect(mail.subject).not.toContain('evil')
    const lines = mail.text.split('\n').filter((line) => line.trim() !== '')
    expect(lines.slice(0, 2)).toEqual([
      'Hello,',
      'A Promptfolio user invited you to join their team. The invitation says:',
    ])
    // Shown as plain text that no mail client turns into a link.
    expect(mail.text).not.toContain('evil.example')
    expect(mail.html).not.toContain('evil.example')
    expect(lines.filter((line) => line.includes('evil'))).toEqual([
      `Team: "${unlinkable(phishing.slice(0, 59))}…"`,
    ])
    expect(mail.html).toMatch(/<th scope="row"[^>]*>Team<\/th><td[^>]*>Your account is locked!/)
  })

  it('ends with "not expecting this? ignore it" in the footer, in both languages', async () => {
    const { admin, team } = await adminWithTeam()
    const email = uniqueEmail('footer')
    await inviteAs(admin, team.id, email)
    const footer = (await latestMailTo(testApp, email)).text.split('\n--\n')[1]
    expect(footer).toContain('Not expecting this invitation? Ignore this email')
    const german = await adminWithTeam('de')
    const other = uniqueEmail('footer')
    await inviteAs(german.admin, german.team.id, other)
    expect((await latestMailTo(testApp, other)).text.split('\n--\n')[1]).toContain(
      'Du hast diese Einladung nicht erwartet?',
    )
  })

  it('refuses a team name with line breaks or other control characters', async () => {
    const admin = new TestClient(testApp)
    await admin.signUp()
    const res = await admin.call(teamOperations.create, {
      body: { name: 'Team\nClick here: https://evil.example' },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.name).toBe('Team name must be one line of text')
  })

  it('rate limits invitations per recipient: 5 a day from all teams together', async () => {
    const strict = await createTestApp({ rateLimitMultiplier: 1 })
    try {
      const email = uniqueEmail('popular')
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) {
        const admin = new TestClient(strict)
        await admin.signUp()
        const team = await createTeamAs(admin, `Team ${i}`)
        const res = await admin.call(teamOperations.invite, { params: { teamId: team.id }, body: { email } })
        statuses.push(res.status)
        if (res.status === 429) {
          expect(errorOf(res).message).toBe(
            'This address has received too many invitations today. Please try again tomorrow.',
          )
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(80_000)
          const [count] = await strict.database.db
            .select({ n: sql<number>`count(*)` })
            .from(invitations)
            .where(eq(invitations.teamId, team.id))
          expect(Number(count!.n)).toBe(0)
        }
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429])
    } finally {
      await strict.close()
    }
  })
})

describe('listing, resending and revoking invitations', () => {
  it('shows open invitations to members, newest first, with expired ones marked', async () => {
    const { admin, team } = await adminWithTeam()
    const params = { teamId: team.id }
    const older = uniqueEmail('older')
    const newer = uniqueEmail('newer')
    const first = await inviteAs(admin, team.id, older)
    await inviteAs(admin, team.id, newer, 'admin')
    await db()
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000), sentAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(invitations.id, first.id))
    const res = await admin.call(teamOperations.invitations, { params })
    expect(res.body.items.map((i) => [i.email, i.role, i.status])).toEqual([
      [newer, 'admin', 'pending'],
      [older, 'member', 'expired'],
    ])
    const detail = await admin.call(teamOperations.get, { params })
    expect(detail.body.pendingInvitationCount).toBe(1)
  })

  it('resends with a new link and validity; the old link stops working', async () => {
    const { admin, team } = await adminWithTeam()
    const invitee = new TestClient(testApp)
    const email = uniqueEmail()
    const invitation = await inviteAs(admin, team.id, email)
    const { token: oldToken } = await invitationLinkFor(testApp, email)
    await db()
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, invitation.id))
    const res = await admin.call(teamOperations.resendInvitation, {
      params: { teamId: team.id, invitationId: invitation.id },
    })
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('pending')
    expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.now() + 6 * 86_400_000)
    const { token: newToken } = await invitationLinkFor(testApp, email)
    expect(newToken).not.toBe(oldToken)
    expect(
      (await invitee.call(teamOperations.previewInvitation, { params: { token: oldToken } })).status,
    ).toBe(404)
    expect(
      (await invitee.call(teamOperations.previewInvitation, { params: { token: newToken } })).status,
    ).toBe(200)
  })

  it('revokes: the link dies and the invitation leaves the list; only open ones can be revoked', async () => {
    const { admin, team } = await adminWithTeam()
    const email = uniqueEmail()
    const invitation = await inviteAs(admin, team.id, email)
    const { token } = await invitationLinkFor(testApp, email)
    const params = { teamId: team.id, invitationId: invitation.id }
    const res = await admin.call(teamOperations.revokeInvitation, { params })
    expect(res.status).toBe(204)
    const preview = await new TestClient(testApp).call(teamOperations.previewInvitation, {
      params: { token },
    })
    expect(errorOf(preview).message).toBe('Invalid or expired invitation')
    const open = await admin.call(teamOperations.invitations, { params: { teamId: team.id } })
    expect(open.body.items).toEqual([])
    const again = await admin.call(teamOperations.revokeInvitation, { params })
    expect(again.status).toBe(409)
    expect(errorOf(again).message).toBe('Only pending or expired invitations can be resent or revoked')
    const missing = await admin.call(teamOperations.revokeInvitation, {
      params: { teamId: team.id, invitationId: 'not-an-id' },
    })
    expect(missing.status).toBe(404)
    // A new invitation for the same address is allowed after revoking.
    expect((await inviteAs(admin, team.id, email)).status).toBe('pending')
  })

  it("does not touch another team's invitation through this team's URL", async () => {
    const { admin, team } = await adminWithTeam()
    const { admin: otherAdmin, team: other } = await adminWithTeam()
    const invitation = await inviteAs(otherAdmin, other.id, uniqueEmail())
    const res = await admin.call(teamOperations.revokeInvitation, {
      params: { teamId: team.id, invitationId: invitation.id },
    })
    expect(res.status).toBe(404)
    const [row] = await db().select().from(invitations).where(eq(invitations.id, invitation.id))
    expect(row!.status).toBe('pending')
  })
})

describe('accepting an invitation', () => {
  async function invited(role: 'admin' | 'member' = 'member') {
    const { admin, team } = await adminWithTeam()
    const invitee = new TestClient(testApp)
    const email = uniqueEmail('invitee')
    const invitation = await inviteAs(admin, team.id, email, role)
    const { token } = await invitationLinkFor(testApp, email)
    return { admin, team, invitee, email, invitation, token }
  }

  it('shows the invitation to whoever holds the link, signed in or not', async () => {
    const { admin, email, token } = await invited('admin')
    const res = await new TestClient(testApp).call(teamOperations.previewInvitation, { params: { token } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      teamName: 'Research',
      email,
      role: 'admin',
      invitedByEmail: admin.user!.email,
      expiresAt: expect.any(String),
    })
    for (const bad of ['x', 'A'.repeat(43), `${token}x`]) {
      const r = await new TestClient(testApp).call(teamOperations.previewInvitation, {
        params: { token: bad },
      })
      expect(r.status).toBe(404)
      expect(errorOf(r).message).toBe('Invalid or expired invitation')
    }
  })

  it('adds the member with the invited role and marks the invitation accepted (one transaction)', async () => {
    const { team, invitee, email, invitation, token } = await invited('admin')
    const user = await invitee.signUp(email)
    const res = await invitee.call(teamOperations.acceptInvitation, { params: { token } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ teamId: team.id, teamName: 'Research', role: 'admin' })
    const members = await invitee.call(teamOperations.members, { params: { teamId: team.id } })
    expect(members.body.items.find((m) => m.userId === user.id)?.role).toBe('admin')
    const [row] = await db().select().from(invitations).where(eq(invitations.id, invitation.id))
    expect(row!.status).toBe('accepted')
    expect(row!.acceptedAt).toBeInstanceOf(Date)
    const again = await invitee.call(teamOperations.acceptInvitation, { params: { token } })
    expect(again.status).toBe(409)
    expect(errorOf(again).message).toBe('Already a member of this team')
    const preview = await invitee.call(teamOperations.previewInvitation, { params: { token } })
    expect(errorOf(preview).message).toBe('Invalid or expired invitation')
  })

  it('needs a signed-in user', async () => {
    const { token } = await invited()
    const res = await new TestClient(testApp).call(teamOperations.acceptInvitation, { params: { token } })
    expect(res.status).toBe(401)
  })

  it('refuses a different email address and changes nothing', async () => {
    const { team, invitee, invitation, token } = await invited()
    await invitee.signUp()
    const res = await invitee.call(teamOperations.acceptInvitation, { params: { token } })
    expect(res.status).toBe(403)
    expect(errorOf(res).message).toBe('Invitation is for a different email address')
    const [row] = await db().select().from(invitations).where(eq(invitations.id, invitation.id))
    expect(row!.status).toBe('pending')
    expect((await invitee.call(teamOperations.get, { params: { teamId: team.id } })).status).toBe(404)
  })

  it('after expires_at: marks the invitation expired and fails with "Invitation has expired"', async () => {
    const { invitee, email, invitation, token } = await invited()
    await invitee.signUp(email)
    await db()
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, invitation.id))
    const preview = await invitee.call(teamOperations.previewInvitation, { params: { token } })
    expect(errorOf(preview).message).toBe('Invitation has expired')
    const [before] = await db().select().from(invitations).where(eq(invitations.id, invitation.id))
    expect(before!.status).toBe('pending')
    const res = await invitee.call(teamOperations.acceptInvitation, { params: { token } })
    expect(res.status).toBe(409)
    expect(errorOf(res)).toMatchObject({ message: 'Invitation has expired', reason: 'expired' })
    const [after] = await db().select().from(invitations).where(eq(invitations.id, invitation.id))
    expect(after!.status).toBe('expired')
    const members = await db().select().from(teamMembers).where(eq(teamMembers.userId, invitee.user!.id))
    expect(members).toEqual([])
    const twice = await invitee.call(teamOperations.acceptInvitation, { params: { token } })
    expect(errorOf(twice).message).toBe('Invitation has expired')
  })

  it('refuses a revoked or unknown invitation with "Invalid or expired invitation"', async () => {
    const { admin, team, invitee, email, invitation, token } = await invited()
    await invitee.signUp(email)
    await admin.call(teamOperations.revokeInvitation, {
      params: { teamId: team.id, invitationId: invitation.id },
    })
    const res = await invitee.call(teamOperations.acceptInvitation, { params: { token } })
    expect(res.status).toBe(404)
    expect(errorOf(res).message).toBe('Invalid or expired invitation')
    const unknown = await invitee.call(teamOperations.acceptInvitation, { params: { token: 'B'.repeat(43) } })
    expect(errorOf(unknown).message).toBe('Invalid or expired invitation')
  })

  it('answers in German', async () => {
    const { token } = await invited()
    const german = new TestClient(testApp, { locale: 'de' })
    await german.signUp()
    const res = await german.call(teamOperations.acceptInvitation, { params: { token } })
    expect(errorOf(res).message).toBe('Die Einladung gilt für eine andere E-Mail-Adresse')
  })

  it('turns two concurrent accepts of one invitation into exactly one membership', async () => {
    const { team, invitee, email, token } = await invited()
    await invitee.signUp(email)
    const second = invitee.copy()
    const results = await Promise.all([
      invitee.call(teamOperations.acceptInvitation, { params: { token } }),
      second.call(teamOperations.acceptInvitation, { params: { token } }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    expect(errorOf(results.find((r) => r.status === 409)!).message).toBe('Already a member of this team')
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(teamMembers)
      .where(eq(teamMembers.teamId, team.id))
    expect(row!.n).toBe(2)
  })
})
