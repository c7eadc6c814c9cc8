import type { Browser, Page } from '@playwright/test'
import { expectNoSeriousViolationsInBothThemes } from './axe.ts'
import { appendMessageViaApi, createConversationViaApi } from './conversations-support.ts'
import { createPromptViaApi, saveBodyViaApi } from './prompts-support.ts'
import {
  ADMIN,
  ADMIN_ONLY_PATHS,
  expect,
  moveWithinApp,
  signInViaApi,
  signUpViaApi,
  test,
  uniqueEmail,
} from './support.ts'
import {
  createTeamViaApi,
  createTeamWithMemberViaApi,
  invitationLinkFor,
  inviteViaApi,
} from './teams-support.ts'

/**
 * Every screen of the route table, in the states a user meets, checked with axe-core in light and
 * dark: a serious or critical violation fails the test (e2e/axe.ts). Each state is checked in both
 * themes as it stands (the theme follows the browser's scheme), so each test signs up, seeds and
 * navigates once for both. From one screen to the next the tests move inside the loaded app
 * (`go`) unless the next one must be read afresh (`visit`): after seeding through the API, or to
 * the same page with other search parameters (see moveWithinApp).
 */

/** Waits until the screen has loaded (no skeletons, nothing busy), then checks it in both themes. */
async function check(page: Page, screen: string) {
  await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0)
  await expectNoSeriousViolationsInBothThemes(page, screen)
}

/** Loads the screen afresh, then checks it. */
async function visit(page: Page, path: string, screen = path) {
  await page.goto(path)
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
  await check(page, screen)
}

/** Takes the loaded app to the screen without a page load, then checks it. */
async function go(page: Page, path: string, screen = path) {
  await moveWithinApp(page, path)
  await check(page, screen)
}

/** A signed-in browser of a second person, e.g. a team member. */
async function secondUser(browser: Browser, email = uniqueEmail('member')) {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const page = await context.newPage()
  await signUpViaApi(page, email)
  return { page, email, close: () => context.close() }
}

test.describe('light and dark themes', () => {
  // Animations finish at once, so colors are checked as they end up; the CSP is bypassed for axe.
  test.use({ reducedMotion: 'reduce', bypassCSP: true })
  // Each test runs axe over a dozen screens, twice: three times the budget of a one-screen test.
  test.slow()

  test('signed-out pages', async ({ page }) => {
    await visit(page, '/login')
    for (const path of [
      '/login-password',
      '/signup-password',
      '/forgot-password',
      '/direct-reset-password',
      '/signup',
      '/test',
      '/terms',
      '/privacy',
      '/this/does/not/exist',
    ]) {
      await go(page, path)
    }
    // Loaded as before: it sends the browser on to /login after 3 s, so its checks race that.
    await visit(page, '/auth/callback')
    await go(page, '/auth-verification')
    await moveWithinApp(page, '/reset-password')
    await expect(page.getByText('Invalid or expired reset session')).toBeVisible()
    await check(page, '/reset-password without a session')

    await moveWithinApp(page, '/login-password')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByRole('alert').first()).toBeVisible()
    await check(page, '/login-password with errors')

    await moveWithinApp(page, '/signup-password')
    await page.getByRole('button', { name: 'Sign up', exact: true }).click()
    await expect(page.getByRole('alert').first()).toBeVisible()
    await check(page, '/signup-password with errors')

    await moveWithinApp(page, '/login')
    await page.getByLabel('Email').fill(uniqueEmail('code'))
    await page.getByRole('button', { name: 'Send code' }).click()
    await expect(page.getByLabel('Code', { exact: true })).toBeVisible()
    await check(page, '/login code step')
  })

  test('invitation pages', async ({ page, browser }) => {
    await signUpViaApi(page)
    const invitee = uniqueEmail('invitee')
    const team = await createTeamViaApi(page, 'Docs Crew')
    await inviteViaApi(page, team.id, invitee)
    const link = new URL(await invitationLinkFor(invitee)).pathname

    const visitor = await browser.newContext({ baseURL: test.info().project.use.baseURL, bypassCSP: true })
    const signedOut = await visitor.newPage()
    await visit(signedOut, link, 'invitation, signed out')
    await visit(signedOut, `/invite/${'x'.repeat(43)}`, 'dead invitation')
    await signUpViaApi(signedOut, invitee)
    await visit(signedOut, link, 'invitation, signed in')
    await visitor.close()
  })

  test('prompts', async ({ page, browser }) => {
    await signUpViaApi(page)
    await visit(page, '/prompts', 'prompts list, empty')
    await go(page, '/prompts/new')
    await page.getByLabel('Title').focus()
    await page.getByLabel('Title').blur()
    await expect(page.getByText('Title is required')).toBeVisible()
    await check(page, '/prompts/new with an error')

    const member = await secondUser(browser)
    await createTeamWithMemberViaApi(page, 'Prompt Crafters', member)
    await member.close()
    const prompt = await createPromptViaApi(page, {
      title: 'Weekly status summary for the leadership team',
      description: 'Turns raw notes into a short status update.',
      tags: ['status', 'summary', 'leadership', 'weekly', 'notes'],
    })
    await saveBodyViaApi(page, prompt.id, 'Summarize {notes} for {audience} in five bullets.')
    await createPromptViaApi(page, { title: 'Cold email opener', tags: ['sales'] })

    await visit(page, '/prompts', 'prompts list')
    await visit(page, '/prompts?scope=team', 'team prompts, empty')
    await visit(page, '/prompts?tags=status&search=weekly', 'prompts list, filtered')
    await page.getByRole('button', { name: 'Tags (1)' }).click()
    await expect(page.getByRole('menu')).toBeVisible()
    await check(page, 'tag filter open')
    await page.keyboard.press('Escape')

    await go(page, `/prompts/${prompt.id}`, 'prompt detail')
    await page.getByRole('button', { name: 'View: Version 1' }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await check(page, 'version dialog')
    await page.keyboard.press('Escape')

    await go(page, `/prompts/${prompt.id}/edit`, 'edit prompt')
    await page.getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByRole('alertdialog')).toBeVisible()
    await check(page, 'delete prompt confirmation')
    await page.keyboard.press('Escape')

    await go(page, '/prompts/00000000-0000-4000-8000-000000000000', 'prompt not found')
  })

  test('conversations', async ({ page }) => {
    await signUpViaApi(page)
    await visit(page, '/conversations', 'conversations list, empty')
    await page.getByRole('button', { name: 'New Conversation' }).first().click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await check(page, 'new conversation dialog')
    await page.keyboard.press('Escape')

    const prompt = await createPromptViaApi(page, { title: 'Tone checker', tags: ['writing'] })
    const conversation = await createConversationViaApi(page, {
      title: 'Launch announcement',
      tags: ['launch', 'email', 'marketing', 'q3'],
      firstMessage: 'Draft a launch announcement for our new feature.',
    })
    await appendMessageViaApi(page, conversation.id, {
      content: { text: 'Here is a draft with a friendly tone.' },
      role: 'assistant',
      attachments: [{ promptId: prompt.id }],
    })
    await visit(page, '/conversations', 'conversations list')
    await go(page, `/conversations/${conversation.id}`, 'conversation detail')
    await page.getByRole('button', { name: 'Attach prompt' }).click()
    await expect(
      page.getByRole('dialog', { name: 'Attach a prompt' }).getByRole('listitem').first(),
    ).toBeVisible()
    await check(page, 'prompt picker')
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Message actions' }).last().click()
    await expect(page.getByRole('menu')).toBeVisible()
    await check(page, 'message menu')
    await page.getByRole('menuitem', { name: 'Attach prompt' }).click()
    // Already attached: the error toast opens over the picker, inside it.
    await page.getByRole('button', { name: 'Attach latest' }).click()
    const toast = page.getByRole('dialog').getByRole('listitem').filter({ hasText: 'Failed to attach' })
    await expect(toast).toBeVisible()
    // Its 4.5 s could run out during the two themes' checks: a pointer over it holds it open.
    await toast.hover()
    await check(page, 'error toast over the prompt picker')
    await expect(toast).toBeVisible()
    await page.keyboard.press('Escape')
    // Loaded afresh: the toast held open above would otherwise still be shown there.
    await visit(page, '/conversations/00000000-0000-4000-8000-000000000000', 'conversation not found')
  })

  test('teams and dashboard', async ({ page, browser }) => {
    await signUpViaApi(page)
    await visit(page, '/dashboard', 'dashboard, personal')
    await go(page, '/team', 'team list, no teams')
    const member = await secondUser(browser)
    const team = await createTeamWithMemberViaApi(page, 'Research Guild', member)
    await member.close()
    await inviteViaApi(page, team.id, uniqueEmail('pending'), 'admin')
    await visit(page, '/team', 'team list')
    await go(page, `/team/${team.id}/manage`, 'team manage')
    await page.getByRole('tab', { name: 'Settings' }).click()
    await check(page, 'team settings')
    await visit(page, '/team/not-a-team/manage', 'invalid team id')

    await moveWithinApp(page, '/dashboard')
    await page.getByLabel('Context').selectOption({ label: 'Research Guild' })
    await check(page, 'dashboard, team context')
    await page.getByRole('button', { name: 'Account menu' }).click()
    await expect(page.getByRole('menu')).toBeVisible()
    await check(page, 'account menu')
    await page.keyboard.press('Escape')
  })

  // Apart from the teams' screens (which ran for 180 s, the whole budget, in a full run at load 8),
  // and run beside them: the settings pages as a team admin who chose the team's context.
  test('profile, settings and placeholders', async ({ page }) => {
    await signUpViaApi(page)
    await createTeamViaApi(page, 'Research Guild')
    await page.goto('/dashboard')
    await page.getByLabel('Context').selectOption({ label: 'Research Guild' })
    await expect(page.getByLabel('Context')).toHaveValue(/.+/)

    await visit(page, '/settings/profile')
    for (const path of [
      '/settings',
      '/billing',
      '/settings/api',
      '/settings/webhooks',
      '/settings/models',
      '/settings/data',
      '/help',
      '/demo',
      '/nowhere',
    ]) {
      await go(page, path)
    }
  })

  test('on a phone: long names wrap or are cut, nothing runs off the screen; the navigation drawer', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    const owner = await signUpViaApi(page, uniqueEmail('maximiliane.schwarzenberg-oberhausen.beratung'))
    const team = await createTeamViaApi(
      page,
      'Marketing & Kommunikation DACH – Content-Strategie und Redaktion',
    )
    const invitee = uniqueEmail('dr.friederike.von-hohenlohe-langenburg.partnerschaften')
    await inviteViaApi(page, team.id, invitee)
    const invitation = new URL(await invitationLinkFor(invitee)).pathname
    await createPromptViaApi(page, {
      title: 'Quarterly-Business-Review-Executive-Summary-Generator-For-Enterprise-Accounts',
      tags: ['kundenkommunikation-mehrsprachig-und-barrierefrei'],
      visibility: 'team',
      teamId: team.id,
    })
    const conversation = await createConversationViaApi(page, {
      title: 'Leadership update for the Q3 launch of the new onboarding flow across all regions',
      tags: ['kundenkommunikation-mehrsprachig-und-barrierefrei'],
      teamId: team.id,
    })
    for (const [path, load] of [
      ['/prompts', visit],
      ['/prompts?scope=team', visit],
      ['/conversations', go],
      [`/conversations/${conversation.id}`, go],
      ['/team', go],
      [`/team/${team.id}/manage`, go],
      [invitation, go],
    ] as const) {
      await load(page, path, `${path} on a phone`)
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(overflow, `${path} is too wide in ${colorScheme} (${owner})`).toBeLessThanOrEqual(0)
      }
    }

    await go(page, '/prompts', 'prompts on a phone')
    await page.getByRole('button', { name: 'Open navigation' }).click()
    await expect(page.getByRole('dialog', { name: 'Main navigation' })).toBeVisible()
    await check(page, 'navigation drawer')
    // Closing it gives the focus back to the menu button.
    await page.keyboard.press('Escape')
    await expect(page.getByRole('button', { name: 'Open navigation' })).toBeFocused()
  })

  test('admin pages', async ({ page }) => {
    await signInViaApi(page, ADMIN.email)
    const [first, ...others] = [...ADMIN_ONLY_PATHS, '/admin?tab=teams', '/temp-reset', '/auth-verification']
    await visit(page, first)
    for (const path of others) {
      await go(page, path)
    }
  })
})
