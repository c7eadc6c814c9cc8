import { readFileSync } from 'node:fs'
import type { Browser, Page } from '@playwright/test'
import { expectNoSeriousViolationsInBothThemes } from './axe.ts'
import { createConversationViaApi } from './conversations-support.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { shot } from './shots.ts'
import { ADMIN, expect, moveWithinApp, signInViaApi, signUpViaApi, test, uniqueEmail } from './support.ts'
import { expectTabsFollowQuickKeys } from './tabs-support.ts'
import { createTeamViaApi } from './teams-support.ts'

/** A signed-in browser of another person. */
async function otherUser(browser: Browser, email = uniqueEmail('promoted')) {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const page = await context.newPage()
  await signUpViaApi(page, email)
  return { page, email, close: () => context.close() }
}

async function openAdmin(page: Page) {
  await page.goto('/admin')
  // The heaviest screen to compile (its chart library): a browser's first visit on a loaded
  // machine has taken over 10 s.
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible({
    timeout: 30_000,
  })
}

async function findUser(page: Page, email: string) {
  await page.getByRole('searchbox', { name: 'Search users by email' }).fill(email)
  const row = page.getByTestId('admin-user-row').filter({ hasText: email })
  await expect(row).toHaveCount(1)
  await expect(page.getByTestId('admin-user-row')).toHaveCount(1)
  return row
}

test('the admin dashboard shows live figures, and a granted role holds for the other user at once', async ({
  page,
  browser,
}) => {
  const other = await otherUser(browser)
  try {
    // Not an admin yet: sent home.
    await other.page.goto('/admin')
    await other.page.waitForURL((url) => url.pathname === '/')

    await signInViaApi(page, ADMIN.email)
    await openAdmin(page)
    for (const card of ['Total Users', 'Total Teams', 'Total Prompts', 'Active Users (30d)']) {
      await expect(page.getByText(card, { exact: true })).toBeVisible()
    }
    await expect(page.getByText('User Acquisition (Last 30 Days)').first()).toBeVisible()
    await expect(
      page.getByTestId('acquisition-chart').locator('.recharts-bar-rectangle').first(),
    ).toBeAttached()
    await page.getByText('Show the figures as a table').click()
    const today = new Date().toLocaleDateString('en', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    })
    await expect(page.getByRole('row', { name: new RegExp(today) })).toBeVisible()

    // The first user carries its badge; the counts are shown.
    await expect(page.getByText(/\d+ users? · \d+ global admins?/)).toBeVisible()
    const row = await findUser(page, other.email)
    await expect(row.getByText('User', { exact: true })).toBeVisible()

    await row.getByRole('button', { name: `Make global admin: ${other.email}` }).click()
    const grant = page.getByRole('alertdialog', { name: 'Make this user a global admin?' })
    await expect(grant).toContainText(other.email)
    await grant.getByRole('button', { name: 'Make global admin' }).click()
    await expect(page.getByText(`${other.email} is now a global admin`).first()).toBeVisible()
    await expect(row.getByText('Global admin', { exact: true })).toBeVisible()

    // At once: the other user's next page load is an admin's.
    await openAdmin(other.page)
    await expect(
      other.page.getByRole('navigation').getByRole('link', { name: 'Admin Dashboard' }),
    ).toBeVisible()

    await row.getByRole('button', { name: `Remove global admin: ${other.email}` }).click()
    const revoke = page.getByRole('alertdialog', { name: 'Remove the global admin role?' })
    await revoke.getByRole('button', { name: 'Remove global admin' }).click()
    await expect(page.getByText(`${other.email} is no longer a global admin`).first()).toBeVisible()
    await other.page.goto('/admin')
    await other.page.waitForURL((url) => url.pathname === '/')

    // Demoting yourself asks more loudly (cancelled here).
    const me = await findUser(page, ADMIN.email)
    await me.getByRole('button', { name: `Remove global admin: ${ADMIN.email}` }).click()
    const self = page.getByRole('alertdialog', { name: 'Remove your own global admin role?' })
    await expect(self.getByRole('button', { name: 'Yes, remove my admin role' })).toBeVisible()
    await self.getByRole('button', { name: 'Cancel' }).click()
    await expect(self).toBeHidden()

    await page.getByRole('tab', { name: 'System Health' }).click()
    await expect(page.getByText('Migrations applied')).toBeVisible()
    await expect(page.getByText('Embedded (PGlite)')).toBeVisible()
    await page.getByRole('tab', { name: 'Email Debug' }).click()
    await expect(page.getByRole('button', { name: 'Send test', exact: true })).toBeVisible()
  } finally {
    await other.close()
  }
})

test('the Teams tab lists every team, and its page lets the global admin act as the team admin', async ({
  page,
  browser,
}) => {
  // Three screens and a team set up: more than one screen's budget on a loaded machine.
  test.slow()
  // The owner's team, set up through the API; their browser is closed before the admin's opens.
  const owner = await otherUser(browser, uniqueEmail('teamowner'))
  const name = `Admin Listed ${Date.now().toString(36)}`
  try {
    const team = await createTeamViaApi(owner.page, name)
    await createPromptViaApi(owner.page, { title: 'Shared', visibility: 'team', teamId: team.id })
    await createConversationViaApi(owner.page, { title: 'Team talk', teamId: team.id })
    await createConversationViaApi(owner.page, { title: 'Team talk 2', teamId: team.id })
  } finally {
    await owner.close()
  }

  await signInViaApi(page, ADMIN.email)
  await openAdmin(page)
  await page.getByRole('tab', { name: 'Teams' }).click()
  await expect(page).toHaveURL(/\?tab=teams$/)
  await expect(page.getByText(/^\d+ teams?$/)).toBeVisible()
  await page.getByRole('searchbox', { name: 'Search teams by name' }).fill(name.toUpperCase())
  const rows = page.getByTestId('admin-team-row')
  await expect(rows).toHaveCount(1)
  // The team's name heads its row; the cells follow: members, admins, plan, prompts, conversations.
  await expect(rows.getByRole('rowheader')).toContainText(name)
  const cells = rows.getByRole('cell')
  await expect(cells.nth(0)).toHaveText('1')
  await expect(cells.nth(1)).toHaveText(owner.email)
  await expect(cells.nth(2)).toContainText('Unlimited')
  await expect(cells.nth(3)).toHaveText('1')
  await expect(cells.nth(4)).toHaveText('2')
  await shot(page, 'admin-teams-table-en-light')

  await rows.getByRole('link', { name: `Manage team ${name}` }).click()
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible()
  await expect(page.getByText('Your Role').locator('..')).toContainText('Global admin')
  const invitee = uniqueEmail('by-global-admin')
  const inviteForm = page.getByRole('form', { name: 'Invite a member' })
  await inviteForm.getByLabel('Email').fill(invitee)
  await inviteForm.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText('Invitation sent', { exact: true })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Pending invitations' }).getByText(invitee)).toBeVisible()
  // Recorded as the global admin's act, in the team's own log.
  await page.getByRole('tab', { name: 'Activity' }).click()
  await expect(page.getByText(invitee).first()).toBeVisible()
  await expect(page.getByText(ADMIN.email).first()).toBeVisible()

  await page.getByRole('link', { name: 'Back to all teams' }).click()
  await expect(page.getByRole('tab', { name: 'Teams' })).toHaveAttribute('aria-selected', 'true')
})

test('the admin dashboard works by keyboard', async ({ page }) => {
  await signInViaApi(page, ADMIN.email)
  await openAdmin(page)
  // Each tab loads its panel's data and puts its name in the address as it is reached.
  await expectTabsFollowQuickKeys(page, page.getByRole('tablist'))
  await expect(page).toHaveURL(/\/admin$/)
  await page.keyboard.press('ArrowRight')
  await expect(page).toHaveURL(/\?tab=teams$/)
  await expect(page.getByRole('searchbox', { name: 'Search teams by name' })).toBeVisible()
  await page.keyboard.press('ArrowLeft')
  const users = page.getByRole('tab', { name: 'User Management' })
  await expect(users).toHaveAttribute('aria-selected', 'true')
  const revoke = (await findUser(page, ADMIN.email)).getByRole('button', {
    name: `Remove global admin: ${ADMIN.email}`,
  })
  await revoke.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('alertdialog', { name: 'Remove your own global admin role?' })
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(revoke).toBeFocused()
})

test('the build status report is made by the server and exports to Markdown', async ({ page }) => {
  await signInViaApi(page, ADMIN.email)
  await page.goto('/build-status')
  await expect(page.getByRole('heading', { name: 'Build Status', level: 1 })).toBeVisible()
  await expect(page.getByTestId('build-item').filter({ hasText: 'Database reachable' })).toContainText(
    'Completed',
  )
  // The e2e server runs with the start script's flags (playwright.config.ts).
  const flags = page.getByTestId('build-item').filter({ hasText: 'Started with the Node flags of npm start' })
  await expect(flags).toContainText('Completed')
  await expect(flags).toContainText('--no-allocation-site-pretenuring')
  await expect(page.getByTestId('build-history-row').first()).toBeVisible()
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export Report' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^build-report-.*\.md$/)
  const markdown = readFileSync(await file.path(), 'utf8')
  expect(markdown).toContain('# Promptfolio build report')
  expect(markdown).toMatch(/\| Database reachable \| Completed \| High \|/)
})

test('the demo dashboard says it shows sample data', async ({ page }) => {
  await signUpViaApi(page)
  await page.goto('/demo')
  await expect(page.getByRole('heading', { name: 'AI Search Monitoring (Demo)', level: 1 })).toBeVisible()
  await expect(page.getByText('Demo with sample data')).toBeVisible()
  for (const text of [
    "Today's Metrics",
    'Prompt Visits',
    'Compatibility Score',
    'Quality Score',
    'Active Websites',
  ]) {
    await expect(page.getByText(text, { exact: true })).toBeVisible()
  }
  for (const card of ['Traffic Trends', 'Overall Score', 'Website Insights']) {
    await expect(page.getByText(card, { exact: true })).toBeVisible()
  }
  await page.getByRole('button', { name: 'AI Analysis' }).click()
  await expect(page.getByRole('dialog', { name: 'AI Analysis (sample)' })).toContainText(
    'no AI model was asked',
  )
  await page.keyboard.press('Escape')
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export Report' }).click()
  expect(readFileSync(await (await download).path(), 'utf8')).toContain(
    'Every figure on it is a fixed sample',
  )
  await page.getByRole('button', { name: 'Refresh Data' }).click()
  await expect(page.getByText('Nothing to refresh').first()).toBeVisible()
})

test('the quick diagnosis probes count conversations and send a sign-in code', async ({ page }) => {
  await signInViaApi(page, ADMIN.email)
  await page.goto('/quick-diagnosis')
  await expect(page.getByText('Count query on conversations')).toBeVisible()
  await expect(page.getByText(/\d+ conversations?$/)).toBeVisible()
  await page.getByRole('button', { name: 'Send test code' }).click()
  // Another spec may have sent the admin a code within the last minute: then the wait is shown.
  await expect(page.getByText(new RegExp(`Code sent to ${ADMIN.email}|Please wait`))).toBeVisible()
})

test.describe('light and dark themes', () => {
  test.use({ reducedMotion: 'reduce', bypassCSP: true })
  test.slow()

  test('the admin screens pass axe', async ({ page }) => {
    // From screen to screen inside the loaded app (nothing is seeded in between): no page loads.
    const ready = async (screen: string) => {
      await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0)
      await expectNoSeriousViolationsInBothThemes(page, screen)
    }
    await signInViaApi(page, ADMIN.email)
    await openAdmin(page)
    await page.getByText('Show the figures as a table').click()
    await ready('/admin users')
    await page.getByRole('button', { name: `Remove global admin: ${ADMIN.email}` }).click()
    await ready('/admin self-demotion dialog')
    await page.keyboard.press('Escape')
    await page.getByRole('tab', { name: 'System Health' }).click()
    await expect(page.getByText('Migrations applied')).toBeVisible()
    await ready('/admin health')
    await page.getByRole('tab', { name: 'Email Debug' }).click()
    await ready('/admin email')
    await moveWithinApp(page, '/build-status')
    await expect(page.getByTestId('build-item').first()).toBeVisible()
    await ready('/build-status')
    await moveWithinApp(page, '/demo')
    await expect(page.getByText('Demo with sample data')).toBeVisible()
    await ready('/demo')
    await moveWithinApp(page, '/quick-diagnosis')
    await expect(page.getByText('Count query on conversations')).toBeVisible()
    await ready('/quick-diagnosis')
  })
})
