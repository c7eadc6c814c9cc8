import { appendMessageViaApi, createConversationViaApi } from './conversations-support.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { expect, signUpViaApi, test } from './support.ts'
import { createTeamViaApi } from './teams-support.ts'

/** Working dashboard: every widget live, in both contexts. */

test('personal context: continue, recent lists, no team yet, getting started and the streak', async ({
  page,
}) => {
  await signUpViaApi(page)
  await createPromptViaApi(page, { title: 'Release notes', tags: ['writing', 'ops', 'weekly', 'extra'] })
  await createConversationViaApi(page, { title: 'Brainstorm' })
  await page.goto('/')

  await expect(page.getByText('Personal context')).toBeVisible()
  await expect(page.getByText('1-day streak')).toBeVisible()
  const continueCard = page.getByRole('region', { name: 'Continue' })
  await expect(continueCard.getByRole('link', { name: 'Open Brainstorm' })).toBeVisible()
  await expect(continueCard.getByRole('link', { name: 'Open Release notes' })).toBeVisible()

  const recent = page.getByRole('region', { name: 'My Prompts (Recent)' })
  await expect(recent.getByRole('link', { name: 'Release notes' })).toBeVisible()
  await expect(recent.getByText('v1')).toBeVisible()
  await expect(recent.getByText('Private')).toBeVisible()
  await expect(recent.getByText('weekly')).toBeVisible()
  await expect(recent.getByText('extra')).toHaveCount(0)
  await expect(
    page.getByRole('region', { name: 'My Conversations (Recent)' }).getByRole('link', { name: 'Brainstorm' }),
  ).toBeVisible()

  const team = page.getByRole('region', { name: 'Team Prompts (Recent)' })
  await expect(team.getByText("You're not in a team yet.")).toBeVisible()
  await expect(team.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/billing')
  // A user without a team is offered to create one right there.
  await team.getByRole('button', { name: 'Create team' }).click()
  await expect(page.getByRole('dialog', { name: 'Create team' })).toBeVisible()
  await page.keyboard.press('Escape')

  const checklist = page.getByRole('region', { name: 'Getting started' })
  await expect(checklist.getByText('50% complete')).toBeVisible()
  await expect(checklist.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50')
  await expect(page.getByText('No new notifications')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Settings & Profile' })).toBeVisible()
  await expect(
    page.getByRole('region', { name: 'Your pulse' }).getByText('previous week: 0').first(),
  ).toBeVisible()
  await expect(
    page.getByRole('region', { name: 'Performance' }).getByText(/No prompt has been attached/),
  ).toBeVisible()
})

test('team context: team prompts with their owner, momentum and pulse; the choice is remembered', async ({
  page,
}) => {
  const email = await signUpViaApi(page)
  const crew = await createTeamViaApi(page, 'Crew')
  const shared = await createPromptViaApi(page, {
    title: 'Shared brief',
    visibility: 'team',
    teamId: crew.id,
  })
  const chat = await createConversationViaApi(page, { title: 'Team chat', teamId: crew.id })
  await appendMessageViaApi(page, chat.id, {
    content: { text: 'Use this' },
    attachments: [{ promptId: shared.id }],
  })
  await page.goto('/dashboard')

  await page.getByLabel('Context').selectOption({ label: 'Crew' })
  await expect(page.getByText('Team context')).toBeVisible()
  const team = page.getByRole('region', { name: 'Team Prompts (Recent)' })
  await expect(team.getByRole('link', { name: 'Shared brief' })).toBeVisible()
  await expect(team.getByText(email)).toBeVisible()
  const momentum = page.getByRole('region', { name: 'Team momentum this week' })
  await expect(momentum.getByText('1 of 5 prompts in the last 7 days')).toBeVisible()
  await expect(momentum.getByText("Create 4 more prompts to reach this week's goal.")).toBeVisible()
  await expect(page.getByRole('region', { name: 'Team pulse' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Performance' }).getByText('1 use')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Quick Invite' })).toBeVisible()

  await page.reload()
  await expect(page.getByText('Team context')).toBeVisible()
  await expect(team.getByRole('link', { name: 'Shared brief' })).toBeVisible()
})

test('deletes a prompt from the recent list after confirming', async ({ page }) => {
  await signUpViaApi(page)
  await createPromptViaApi(page, { title: 'Keep me' })
  await createPromptViaApi(page, { title: 'Delete me' })
  await page.goto('/')
  const recent = page.getByRole('region', { name: 'My Prompts (Recent)' })
  await recent.getByRole('button', { name: 'Actions for Delete me' }).click()
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Delete prompt?' })
  await expect(dialog.getByText(/This action cannot be undone/)).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(recent.getByRole('link', { name: 'Delete me' })).toBeVisible()

  await recent.getByRole('button', { name: 'Actions for Delete me' }).click()
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Prompt deleted', { exact: true })).toBeVisible()
  await expect(recent.getByRole('link', { name: 'Delete me' })).toHaveCount(0)
  await expect(recent.getByRole('link', { name: 'Keep me' })).toBeVisible()
})

test('celebrates finishing Getting started once, then hides the card', async ({ page }) => {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, { title: 'First' })
  await createTeamViaApi(page, 'Mine')
  const chat = await createConversationViaApi(page, { title: 'Chat' })
  await appendMessageViaApi(page, chat.id, {
    content: { text: 'Hi' },
    attachments: [{ promptId: prompt.id }],
  })
  await page.goto('/')
  await expect(page.getByText("You're all set!")).toBeVisible()
  await page.getByRole('button', { name: 'Close' }).click()
  await expect(page.getByText("You're all set!")).toHaveCount(0)

  await page.reload()
  await expect(
    page.getByRole('region', { name: 'Continue' }).getByRole('link', { name: 'Open Chat' }),
  ).toBeVisible()
  await expect(page.getByText("You're all set!")).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Getting started' })).toHaveCount(0)
})

test('Team scope of the prompts list: the highest milestone banner, dismissed for the page session, and the weekly strip', async ({
  page,
}) => {
  await signUpViaApi(page)
  const crew = await createTeamViaApi(page, 'Crew')
  for (const title of ['One', 'Two', 'Three', 'Four', 'Five'])
    await createPromptViaApi(page, { title, visibility: 'team', teamId: crew.id })
  await page.goto('/prompts?scope=team')
  await expect(page.getByRole('figure', { name: 'Activity over the last 7 days' })).toBeVisible()
  await expect(page.getByText('5 new prompts, versions and conversations this week')).toBeVisible()
  // Each bar shows its number.
  const strip = page.getByRole('figure', { name: 'Activity over the last 7 days' })
  await expect(strip.getByText('5', { exact: true })).toBeVisible()
  const banner = page.getByText('Milestone reached: your team has 5 prompts!')
  await expect(banner).toBeVisible()
  await page.getByRole('button', { name: 'Dismiss milestone' }).click()
  await expect(banner).toHaveCount(0)
  await page.reload()
  await expect(page.getByText('5 new prompts, versions and conversations this week')).toBeVisible()
  await expect(banner).toHaveCount(0)
})

test.describe('app shell', () => {
  // The test refuses the session request on purpose: the browser logs the refused connection.
  test.use({ expectedConsoleError: /ERR_CONNECTION_REFUSED/ })

  test('a failed session check shows the network message with a retry instead of the sign-in page', async ({
    page,
  }) => {
    await signUpViaApi(page)
    let fail = true
    await page.route('**/api/v1/session', (route) =>
      fail ? route.abort('connectionrefused') : route.continue(),
    )
    await page.goto('/dashboard')
    await expect(
      page.getByText('Network connection issue. Please check your internet connection and try again.'),
    ).toBeVisible()
    await expect(page).toHaveURL(/\/dashboard$/)
    fail = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByText('Personal context')).toBeVisible()
  })
})
