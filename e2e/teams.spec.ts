import type { Page } from '@playwright/test'
import { codeOf, linkOf, mailCount, waitForMail } from './mailbox.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { expect, PASSWORD, signUpViaApi, test, uniqueEmail } from './support.ts'
import {
  createTeamViaApi,
  createTeamWithMemberViaApi,
  invitationLinkFor,
  inviteViaApi,
} from './teams-support.ts'

/** Every API answer of 400 or more that `page` gets from now on (method, path and status). */
function failedResponses(page: Page): string[] {
  const failed: string[] = []
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (url.pathname.startsWith('/api/') && response.status() >= 400) {
      failed.push(`${response.request().method()} ${url.pathname} ${response.status()}`)
    }
  })
  return failed
}

test('creating a team makes you its admin; the sidebar and /team offer to manage it', async ({ page }) => {
  await signUpViaApi(page)
  await page.goto('/team')
  await expect(page.getByText('You are not an admin of any team yet')).toBeVisible()
  await page.getByRole('button', { name: 'Create team' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Create team' })
  await dialog.getByRole('button', { name: 'Create team' }).click()
  await expect(dialog.getByText('Team name is required')).toBeVisible()
  await dialog.getByLabel('Team name').fill('Launch Crew')
  await dialog.getByRole('button', { name: 'Create team' }).click()
  await expect(page.getByText('Team created', { exact: true })).toBeVisible()
  await expect(page).toHaveURL(/\/team\/[0-9a-f-]{36}\/manage$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Launch Crew' })).toBeVisible()
  await expect(page.getByText('Your Role')).toBeVisible()
  await expect(page.getByText('Active', { exact: true })).toBeVisible()

  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  await expect(nav.getByText('Team Management')).toBeVisible()
  await nav.getByRole('link', { name: 'Team', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Teams you manage' })).toBeVisible()
  await page.getByRole('link', { name: 'Manage Team: Launch Crew' }).click()
  await page.getByRole('tab', { name: 'Settings' }).click()
  await page.getByLabel('Team name').fill('Launch Crew 2')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Team name saved', { exact: true })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Manage Launch Crew 2' })).toBeVisible()
})

test('the dashboard switches between personal and team context and remembers it', async ({ page }) => {
  await signUpViaApi(page)
  const team = await createTeamViaApi(page, 'Dash Team')
  await page.goto('/dashboard')
  await expect(page.getByText('Personal context')).toBeVisible()
  await page.getByLabel('Context').selectOption({ label: 'Dash Team' })
  await expect(page.getByText('Team context')).toBeVisible()
  const members = page.getByRole('definition').first()
  await expect(page.getByText('Pending Invites')).toBeVisible()
  await expect(members).toHaveText('1')
  await page.getByRole('form', { name: 'Quick Invite' }).getByLabel('Email').fill(uniqueEmail('quick'))
  await page.getByRole('button', { name: 'Invite', exact: true }).click()
  await expect(page.getByText('Invitation sent', { exact: true })).toBeVisible()
  await expect(page.getByRole('definition').nth(1)).toHaveText('1')
  expect(await page.evaluate(() => localStorage.getItem('dashboard.teamId'))).toBe(team.id)
  await page.reload()
  await expect(page.getByText('Team context')).toBeVisible()
  await page.getByLabel('Context').selectOption({ label: 'Personal' })
  await expect(page.getByText('Personal context')).toBeVisible()
  await expect(page.getByText('Quick Invite')).toHaveCount(0)
})

test('a bad team id shows "Invalid team ID"; a team you cannot see sends you home', async ({ page }) => {
  await signUpViaApi(page)
  await page.goto('/team/not-a-team/manage')
  await expect(page.getByRole('heading', { name: 'Invalid team ID' })).toBeVisible()
  await page.getByRole('link', { name: 'Go Home' }).click()
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/team/00000000-0000-4000-8000-000000000000/manage')
  await expect(page.getByText('Failed to load team information', { exact: true })).toBeVisible()
  await expect(page.getByText('Team not found or access denied', { exact: true })).toBeVisible()
  await expect(page).toHaveURL(/\/$/)
})

test('a dead invitation link says so, signed in or not', async ({ page }) => {
  const dead = `/invite/${'x'.repeat(43)}`
  await page.goto(dead)
  await expect(page.getByText('This invitation cannot be used')).toBeVisible()
  await expect(page.getByText('Invalid or expired invitation')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Go to sign in' })).toBeVisible()
  await signUpViaApi(page)
  await page.goto(dead)
  await page.getByRole('link', { name: 'Go to your teams' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible()
})

test('an admin invites by email; the invitee accepts in another browser; the admin changes the role and removes them', async ({
  page,
  browser,
  baseURL,
}) => {
  // Two browsers and a mail round trip: more than one screen's budget (45 s here on a quiet machine).
  test.slow()
  const adminEmail = await signUpViaApi(page)
  const team = await createTeamViaApi(page, 'Field Team')
  await page.goto(`/team/${team.id}/manage`)
  const inviteForm = page.getByRole('form', { name: 'Invite a member' })
  await inviteForm.getByRole('button', { name: 'Send invitation' }).click()
  await expect(inviteForm.getByText('Please enter an email address')).toBeVisible()
  const inviteeEmail = uniqueEmail('invitee')
  await inviteForm.getByLabel('Email').fill(inviteeEmail)
  await inviteForm.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText('Invitation sent', { exact: true })).toBeVisible()
  const pending = page.getByRole('list', { name: 'Pending invitations' })
  await expect(pending.getByText(inviteeEmail)).toBeVisible()
  await expect(pending.getByText('Pending', { exact: true })).toBeVisible()

  const link = await invitationLinkFor(inviteeEmail)
  expect(link).toMatch(new RegExp(`^${baseURL}/invite/[\\w-]{43}$`))

  const inviteeContext = await browser.newContext()
  const invitee = await inviteeContext.newPage()
  await signUpViaApi(invitee, inviteeEmail)
  await invitee.goto(link)
  await expect(
    invitee.getByRole('heading', { name: `${adminEmail} invited you to join Field Team` }),
  ).toBeVisible()
  await invitee.getByRole('button', { name: 'Accept invitation' }).click()
  await expect(invitee.getByText('You joined Field Team', { exact: true })).toBeVisible()
  await expect(invitee.getByRole('heading', { level: 1, name: 'Field Team' })).toBeVisible()
  await expect(invitee.getByText('Your Role').locator('..')).toContainText('Member')
  // The permission table hides what a member may not do.
  await expect(invitee.getByRole('form', { name: 'Invite a member' })).toHaveCount(0)
  await expect(invitee.getByRole('combobox', { name: /^Role of/ })).toHaveCount(0)

  await page.reload()
  const members = page.getByRole('list', { name: 'Members' })
  await expect(members.getByText(inviteeEmail)).toBeVisible()
  await expect(pending.getByText(inviteeEmail)).toHaveCount(0)
  await page.getByLabel(`Role of ${inviteeEmail}`).selectOption('admin')
  await expect(page.getByText('Role updated', { exact: true })).toBeVisible()
  await invitee.reload()
  await expect(invitee.getByText('Your Role').locator('..')).toContainText('Admin')
  await expect(invitee.getByRole('form', { name: 'Invite a member' })).toBeVisible()

  await page.getByRole('button', { name: `Remove ${inviteeEmail}` }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Remove member?' })
  await expect(confirm).toContainText(`${inviteeEmail} loses access`)
  await confirm.getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByText('Member removed', { exact: true })).toBeVisible()
  await expect(members.getByText(inviteeEmail)).toHaveCount(0)
  await expect(page.getByText('Members', { exact: true }).first().locator('..')).toContainText('1')

  await invitee.reload()
  await expect(invitee.getByText('Failed to load team information', { exact: true })).toBeVisible()
  await expect(invitee).toHaveURL(/\/$/)
  await inviteeContext.close()
})

test('an admin who hands the admin role on and demotes themselves loses the admin actions at once', async ({
  page,
  browser,
}) => {
  const adminEmail = await signUpViaApi(page)
  const context = await browser.newContext()
  const member = await context.newPage()
  const memberEmail = await signUpViaApi(member)
  const team = await createTeamWithMemberViaApi(page, 'Handover', { page: member, email: memberEmail })
  await page.goto(`/team/${team.id}/manage`)
  await page.getByLabel(`Role of ${memberEmail}`).selectOption('admin')
  await expect(page.getByText('Role updated', { exact: true })).toBeVisible()
  await page.getByLabel(`Role of ${adminEmail}`).selectOption('member')
  await expect(page.getByLabel(`Role of ${adminEmail}`)).toHaveCount(0)
  await expect(page.getByText('Your Role').locator('..')).toContainText('Member')
  await expect(page.getByRole('form', { name: 'Invite a member' })).toHaveCount(0)
  await expect(
    page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Manage Handover' }),
  ).toHaveCount(0)
  await context.close()
})

test('a signed-out invitee signs up from the invitation and comes back to accept', async ({
  page,
  browser,
}) => {
  await signUpViaApi(page)
  const team = await createTeamViaApi(page, 'Newcomers')
  const email = uniqueEmail('newbie')
  await inviteViaApi(page, team.id, email, 'admin')
  const link = await invitationLinkFor(email)

  const context = await browser.newContext()
  const visitor = await context.newPage()
  await visitor.goto(link)
  await expect(visitor.getByText(`Sign in or create an account with ${email} to accept.`)).toBeVisible()
  await visitor.getByRole('link', { name: 'Create an account' }).click()
  await expect(visitor.getByLabel('Email')).toHaveValue(email)
  await visitor.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await visitor.getByLabel('Repeat password').fill(PASSWORD)
  await visitor.getByRole('checkbox').check()
  await visitor.getByRole('button', { name: 'Sign up' }).click()
  await expect(visitor.getByText('Successfully registered!')).toBeVisible()
  await visitor.waitForURL(/\/invite\/[\w-]+$/)
  const failed = failedResponses(visitor)
  await visitor.getByRole('button', { name: 'Accept invitation' }).click()
  await expect(visitor.getByRole('heading', { level: 1, name: 'Newcomers' })).toBeVisible()
  await visitor.waitForLoadState('networkidle')
  // The used invitation is not asked for again (it would answer 404).
  expect(failed).toEqual([])
  await expect(visitor.getByText('Your Role').locator('..')).toContainText('Admin')
  await expect(
    visitor
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Manage Newcomers' }),
  ).toBeVisible()
  await context.close()
})

test('signed in with another account: the invitation says so; switching accounts and signing in comes back', async ({
  page,
  browser,
}) => {
  await signUpViaApi(page)
  const team = await createTeamViaApi(page, 'Switchers')
  const email = uniqueEmail('switch')
  const context = await browser.newContext()
  const other = await context.newPage()
  await signUpViaApi(other, email)
  await other.context().clearCookies()
  await signUpViaApi(other)
  await inviteViaApi(page, team.id, email)
  const link = await invitationLinkFor(email)

  await other.goto(link)
  await expect(other.getByText('Invitation is for a different email address')).toBeVisible()
  await expect(other.getByRole('button', { name: 'Accept invitation' })).toHaveCount(0)
  await other.getByRole('button', { name: 'Sign out and use another account' }).click()
  await expect(other.getByText(`Sign in or create an account with ${email} to accept.`)).toBeVisible()
  await other.getByRole('link', { name: 'Sign in with password' }).click()
  await other.waitForURL(/\/login-password\?/)
  await expect(other.getByLabel('Email')).toHaveValue(email)
  await other.getByLabel('Password').fill(PASSWORD)
  await other.getByRole('button', { name: 'Sign in' }).click()
  await other.waitForURL(/\/invite\//)
  await other.getByRole('button', { name: 'Accept invitation' }).click()
  await expect(other.getByRole('heading', { level: 1, name: 'Switchers' })).toBeVisible()
  await context.close()
})

test('a signed-out invitee signs in by emailed code, through the link in the code mail, and lands on the invitation', async ({
  page,
  browser,
}) => {
  // Two browsers, a mail round trip and a sign-in: more than one screen's budget.
  test.slow()
  await signUpViaApi(page)
  const team = await createTeamViaApi(page, 'Coders')
  const email = uniqueEmail('bycode')
  await inviteViaApi(page, team.id, email)
  const link = await invitationLinkFor(email)

  const context = await browser.newContext()
  const visitor = await context.newPage()
  await visitor.goto(link)
  await visitor.getByRole('link', { name: 'Sign in with an emailed code' }).click()
  await expect(visitor.getByLabel('Email')).toHaveValue(email)
  const before = await mailCount(email)
  await visitor.getByRole('button', { name: 'Send code' }).click()
  await expect(visitor.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible()
  const mail = await waitForMail(email, { after: before })

  // The mail's link opens the code step for the address (a new tab, say) and still comes back.
  const fromMail = await context.newPage()
  await fromMail.goto(linkOf(mail, '/login'))
  await expect(fromMail.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible()
  await fromMail.getByLabel('Code').fill(codeOf(mail))
  await fromMail.getByRole('button', { name: 'Sign in', exact: true }).click()
  await fromMail.waitForURL(new URL(link).pathname)
  const failed = failedResponses(fromMail)
  await fromMail.getByRole('button', { name: 'Accept invitation' }).click()
  await expect(fromMail.getByRole('heading', { level: 1, name: 'Coders' })).toBeVisible()
  await fromMail.waitForLoadState('networkidle')
  expect(failed).toEqual([])
  await context.close()
})

test('resending sends a new link and kills the old one; revoking kills the link', async ({ page }) => {
  // Two mails to wait for, one after the other.
  test.slow()
  await signUpViaApi(page)
  const team = await createTeamViaApi(page, 'Resenders')
  const email = uniqueEmail('resend')
  await inviteViaApi(page, team.id, email)
  const first = await invitationLinkFor(email)
  await page.goto(`/team/${team.id}/manage#invites`)
  await expect(page.getByRole('heading', { name: 'Pending invitations' })).toBeInViewport()
  await page.getByRole('button', { name: `Resend the invitation to ${email}` }).click()
  await expect(page.getByText('Invitation sent', { exact: true })).toBeVisible()
  const second = await invitationLinkFor(email, { after: 1 })
  expect(second).not.toBe(first)
  await page.goto(first)
  await expect(page.getByText('This invitation cannot be used')).toBeVisible()
  await page.goto(second)
  await expect(page.getByRole('heading', { name: /invited you to join Resenders/ })).toBeVisible()

  await page.goto(`/team/${team.id}/manage#invites`)
  await page.getByRole('button', { name: `Revoke the invitation to ${email}` }).click()
  await page
    .getByRole('alertdialog', { name: 'Revoke invitation?' })
    .getByRole('button', { name: 'Revoke' })
    .click()
  await expect(page.getByText('Invitation revoked', { exact: true })).toBeVisible()
  await expect(page.getByText('No pending invitations.')).toBeVisible()
  await page.goto(second)
  await expect(page.getByText('Invalid or expired invitation')).toBeVisible()
})

test('a team prompt appears for a member and disappears when they are removed', async ({ page, browser }) => {
  const adminEmail = await signUpViaApi(page)
  const context = await browser.newContext()
  const member = await context.newPage()
  const memberEmail = await signUpViaApi(member)
  const team = await createTeamWithMemberViaApi(page, 'Prompt Crew', { page: member, email: memberEmail })
  const shared = await createPromptViaApi(page, {
    title: 'Shared checklist',
    visibility: 'team',
    teamId: team.id,
  })

  await member.goto('/prompts?scope=team')
  const row = member.getByRole('listitem').filter({ hasText: 'Shared checklist' })
  await expect(row).toBeVisible()
  await expect(row).toContainText(adminEmail)

  await page.goto(`/team/${team.id}/manage`)
  await page.getByRole('button', { name: `Remove ${memberEmail}` }).click()
  await page
    .getByRole('alertdialog', { name: 'Remove member?' })
    .getByRole('button', { name: 'Remove' })
    .click()
  await expect(page.getByText('Member removed', { exact: true })).toBeVisible()

  await member.reload()
  await expect(member.getByText('Shared checklist')).toHaveCount(0)
  await member.goto(`/prompts/${shared.id}`)
  await expect(member.getByText('Prompt not found').first()).toBeVisible()
  await context.close()
})
