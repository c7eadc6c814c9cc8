import { desc, eq } from 'drizzle-orm'
import { teamOperations } from '../../domain/api/teams.ts'
import type { TeamRole } from '../../domain/permissions.ts'
import type { TeamInvitation, TeamSummary } from '../../domain/teams.ts'
import type { Db } from '../db/client.ts'
import { mailOutbox, teamMembers, teams } from '../db/schema/index.ts'
import type { TestClient } from './client.ts'
import { openedText } from './outbox.ts'
import type { TestApp } from './test-app.ts'

/**
 * Team fixtures for API tests. The teams suites go through the API, as a user would do it
 * (createTeamAs, inviteAs, addMember); suites that only need a membership use insertTeam.
 */

/** A team with the given members (role 'member' unless said), written straight into the database. */
export async function insertTeam(
  db: Db,
  name: string,
  members: { userId: string; role?: TeamRole }[],
): Promise<string> {
  const [team] = await db
    .insert(teams)
    .values({ name, createdByUserId: members[0]?.userId })
    .returning({ id: teams.id })
  if (members.length > 0) {
    await db
      .insert(teamMembers)
      .values(members.map((m) => ({ teamId: team!.id, userId: m.userId, role: m.role ?? 'member' })))
  }
  return team!.id
}
export async function createTeamAs(client: TestClient, name = 'Team'): Promise<TeamSummary> {
  const res = await client.call(teamOperations.create, { body: { name } })
  if (res.status !== 201) throw new Error(`create team failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

export async function inviteAs(
  client: TestClient,
  teamId: string,
  email: string,
  role: TeamRole = 'member',
): Promise<TeamInvitation> {
  const res = await client.call(teamOperations.invite, { params: { teamId }, body: { email, role } })
  if (res.status !== 201) throw new Error(`invite failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

export interface SentMail {
  subject: string
  text: string
  html: string | null
  kind: string
}

/** The newest mail queued for `to` (the outbox table; delivery is another module's job). */
export async function latestMailTo(testApp: TestApp, to: string): Promise<SentMail> {
  const [row] = await testApp.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, to))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(1)
  if (!row) throw new Error(`no mail to ${to}`)
  return {
    subject: openedText(testApp, row.subject, row.secrets),
    text: openedText(testApp, row.textBody, row.secrets),
    html: row.htmlBody === null ? null : openedText(testApp, row.htmlBody, row.secrets),
    kind: row.kind,
  }
}

/** The accept link of the newest invitation mail to `to`, and its token. */
export async function invitationLinkFor(
  testApp: TestApp,
  to: string,
): Promise<{ url: string; token: string }> {
  const mail = await latestMailTo(testApp, to)
  const match = mail.text.match(/(https?:\/\/\S+\/invite\/([A-Za-z0-9_-]+))/)
  if (!match) throw new Error(`no invitation link in: ${mail.text}`)
  return { url: match[1]!, token: match[2]! }
}

/** Invites `member` (signed up already) into the team and accepts as them. */
export async function addMember(
  testApp: TestApp,
  admin: TestClient,
  teamId: string,
  member: TestClient,
  role: TeamRole = 'member',
): Promise<void> {
  const email = member.user?.email
  if (!email) throw new Error('addMember: the member must be signed up')
  await inviteAs(admin, teamId, email, role)
  const { token } = await invitationLinkFor(testApp, email)
  const res = await member.call(teamOperations.acceptInvitation, { params: { token } })
  if (res.status !== 200) throw new Error(`accept failed: ${res.status} ${JSON.stringify(res.body)}`)
}
