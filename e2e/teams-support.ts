import { expect, type Page } from '@playwright/test'
import type { TeamSummary } from '../src/domain/teams.ts'
import { linkOf, waitForMail } from './mailbox.ts'
import { apiOptions } from './support.ts'

/** Team set-up through the API, from the signed-in browser context of `page`. */
export async function createTeamViaApi(page: Page, name: string): Promise<TeamSummary> {
  const res = await page.request.post('/api/v1/teams', { data: { name }, ...apiOptions() })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()) as TeamSummary
}

export async function inviteViaApi(page: Page, teamId: string, email: string, role = 'member') {
  const res = await page.request.post(`/api/v1/teams/${teamId}/invitations`, {
    data: { email, role },
    ...apiOptions(),
  })
  expect(res.status(), await res.text()).toBe(201)
}

/** The accept link of the invitation mail to `email` (read from the e2e SMTP server). */
export async function invitationLinkFor(email: string, options: { after?: number } = {}): Promise<string> {
  return linkOf(await waitForMail(email, options), '/invite/')
}

/** Accepts an invitation link through the API as the page's signed-in user. */
async function acceptViaApi(page: Page, link: string) {
  const token = new URL(link).pathname.split('/').pop()
  const res = await page.request.post(`/api/v1/invitations/${token}/accept`, {
    ...apiOptions(),
  })
  expect(res.status(), await res.text()).toBe(200)
}

/**
 * A team of `owner`'s user with one member, made the way people make one: the owner creates it
 * (becoming its admin) and invites the member, the invitation link is read from the mail that
 * really went out, and the member, signed in on `member.page`, accepts it.
 */
export async function createTeamWithMemberViaApi(
  owner: Page,
  name: string,
  member: { page: Page; email: string },
): Promise<TeamSummary> {
  const team = await createTeamViaApi(owner, name)
  await inviteViaApi(owner, team.id, member.email)
  await acceptViaApi(member.page, await invitationLinkFor(member.email))
  return team
}
