import type { Locator, Page } from '@playwright/test'
import { appendMessageViaApi, createConversationViaApi } from './conversations-support.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { apiOptions, expect, signUpViaApi, test, uniqueEmail } from './support.ts'
import { expectTabsFollowQuickKeys } from './tabs-support.ts'
import { createTeamViaApi } from './teams-support.ts'

/**
 * The main flows done with the keyboard alone: no clicks, only Tab, Enter, Space, arrows, Escape
 * and typing. Every control reached by Tab must show where the focus is.
 */

/** Presses Tab until `target` has the focus (failing after `max` presses), and checks the focus shows. */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let presses = 0; presses < max; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) break
    await page.keyboard.press('Tab')
  }
  await expect(target).toBeFocused()
  await expectVisibleFocus(target)
}

/**
 * The focused control is drawn with a focus outline (the app's :focus-visible style), on itself or on
 * the group that stands for it (the message composer around its borderless text box).
 */
async function expectVisibleFocus(target: Locator) {
  const shown = await target.evaluate((element) => {
    if (!element.matches(':focus-visible')) return false
    const outlined = (node: Element) => {
      const style = getComputedStyle(node)
      return style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2
    }
    for (
      let node: Element | null = element, depth = 0;
      node && depth < 4;
      node = node.parentElement, depth += 1
    ) {
      if (outlined(node)) return true
    }
    return false
  })
  expect(shown, 'the focused control shows a focus outline').toBe(true)
}

test.beforeEach(async ({ page }) => {
  await signUpViaApi(page)
})

test('create a prompt with tags by keyboard', async ({ page }) => {
  await page.goto('/prompts')
  await expect(page.getByRole('heading', { name: 'No prompts yet' })).toBeVisible()
  await tabTo(page, page.getByRole('link', { name: 'New Prompt' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Create New Prompt', level: 1 })).toBeVisible()

  await tabTo(page, page.getByLabel('Title'))
  await page.keyboard.type('Keyboard summary')
  await tabTo(page, page.getByLabel('Prompt Content'))
  await page.keyboard.type('Summarize {text} in three bullets.')
  await tabTo(page, page.getByRole('textbox', { name: 'Tags' }))
  await page.keyboard.type('keyboard')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: 'Remove tag keyboard' })).toBeVisible()
  await tabTo(page, page.getByRole('button', { name: 'Create Prompt' }))
  await page.keyboard.press('Enter')

  await expect(page.getByRole('heading', { name: 'Keyboard summary', level: 1 })).toBeVisible()
  await expect(
    page.getByRole('region', { name: 'Current Version' }).getByText('Summarize {text} in three bullets.'),
  ).toBeVisible()
  await expect(page.getByRole('list', { name: 'Tags' }).getByText('keyboard')).toBeVisible()
})

test('send a message and attach prompts by keyboard, in the composer and from a message menu', async ({
  page,
}) => {
  const prompt = await createPromptViaApi(page, { title: 'Keyboard prompt', body: 'Version one' })
  await page.request.patch(`/api/v1/prompts/${prompt.id}`, {
    data: { body: 'Version two' },
    ...apiOptions(),
  })
  const conversation = await createConversationViaApi(page, { title: 'Keys only' })
  await appendMessageViaApi(page, conversation.id, { content: { text: 'First message' } })
  await page.goto(`/conversations/${conversation.id}`)
  await expect(page.getByText('First message')).toBeVisible()

  // Attach prompt in the composer: the picker opens with the focus inside it.
  const attach = page.getByRole('button', { name: 'Attach prompt' })
  await tabTo(page, attach)
  await page.keyboard.press('Enter')
  const picker = page.getByRole('dialog', { name: 'Attach a prompt' })
  await expect(picker).toBeVisible()
  await tabTo(page, picker.getByRole('button', { name: 'Attach latest' }))
  await page.keyboard.press('Enter')
  await expect(picker).toBeHidden()
  await expect(attach).toBeFocused()
  await expect(page.getByRole('list', { name: 'Prompts to attach' }).getByText('latest')).toBeVisible()

  const composer = page.getByRole('textbox', { name: 'Message', exact: true })
  await tabTo(page, composer)
  await page.keyboard.type('Sent from the keyboard')
  await page.keyboard.press('Enter')
  const sent = page.getByRole('article', { name: 'You' }).filter({ hasText: 'Sent from the keyboard' })
  await expect(sent.getByRole('link', { name: 'Keyboard prompt' })).toBeVisible()
  await expect(composer).toHaveValue('')

  // From the message's menu: arrows move, Enter chooses; then a specific version from the picker.
  await tabTo(page, sent.getByRole('button', { name: 'Message actions' }))
  await page.keyboard.press('Enter')
  const attachItem = page.getByRole('menuitem', { name: 'Attach prompt' })
  await expect(attachItem).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await expect(attachItem).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(picker).toBeVisible()
  await tabTo(page, picker.getByRole('button', { name: 'Versions' }))
  await page.keyboard.press('Enter')
  await tabTo(page, picker.getByRole('button', { name: 'Attach version 1 of Keyboard prompt' }))
  await page.keyboard.press('Enter')
  await expect(page.getByText('Prompt attached', { exact: true })).toBeVisible()
  await expect(sent.getByText('v1')).toBeVisible()

  // Escape closes a dialog and gives the focus back to what opened it.
  await tabTo(page, attach)
  await page.keyboard.press('Enter')
  await expect(picker).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(picker).toBeHidden()
  await expect(attach).toBeFocused()
})

test('an error toast over the picker is reached by keyboard and closed with its button', async ({ page }) => {
  const prompt = await createPromptViaApi(page, { title: 'Once only' })
  const conversation = await createConversationViaApi(page, { title: 'Toast by keys' })
  await appendMessageViaApi(page, conversation.id, {
    content: { text: 'Has it already' },
    attachments: [{ promptId: prompt.id }],
  })
  await page.goto(`/conversations/${conversation.id}`)
  await tabTo(page, page.getByRole('button', { name: 'Message actions' }))
  await page.keyboard.press('Enter')
  await page.keyboard.press('Enter')
  const picker = page.getByRole('dialog', { name: 'Attach a prompt' })
  await tabTo(page, picker.getByRole('button', { name: 'Attach latest' }))
  await page.keyboard.press('Enter')
  const toast = picker.getByRole('listitem').filter({ hasText: 'Failed to attach' })
  await expect(toast).toBeVisible()

  // The toast sits in the dialog, so Tab reaches its close button (the dialog keeps the focus).
  const close = toast.getByRole('button', { name: 'Close notification' })
  await tabTo(page, close)
  await page.keyboard.press('Enter')
  await expect(toast).toBeHidden()
  await expect(picker).toBeVisible()
})

test('invite a member by keyboard', async ({ page }) => {
  const team = await createTeamViaApi(page, 'Keyboard Crew')
  await page.goto(`/team/${team.id}/manage`)
  const form = page.getByRole('form', { name: 'Invite a member' })
  await expect(form).toBeVisible()
  const email = uniqueEmail('keys')

  await tabTo(page, form.getByLabel('Email'))
  await page.keyboard.type(email)
  await tabTo(page, form.getByLabel('Role'))
  // A closed select chooses by typing the option's first letters.
  await page.keyboard.type('Adm')
  await expect(form.getByLabel('Role')).toHaveValue('admin')
  await tabTo(page, form.getByRole('button', { name: 'Send invitation' }))
  await page.keyboard.press('Enter')

  await expect(page.getByText('Invitation sent', { exact: true })).toBeVisible()
  const invitations = page.getByRole('list', { name: 'Pending invitations' })
  await expect(invitations.getByText(email)).toBeVisible()
  await expect(invitations.getByRole('listitem').filter({ hasText: email })).toContainText('Admin')
})

test('tab lists follow arrow keys pressed quickly, wrapping, and Home and End', async ({ page }) => {
  // Local state: the prompt page's code snippets.
  const prompt = await createPromptViaApi(page, { title: 'Tabbed', body: 'Hello {{name}}.' })
  await page.goto(`/prompts/${prompt.id}`)
  const snippet = page.getByRole('region', { name: 'Fetch it from code' })
  await expect(snippet.getByRole('tab', { name: 'curl' })).toHaveAttribute('aria-selected', 'true')
  await expectTabsFollowQuickKeys(page, snippet.getByRole('tablist'))

  // Panels that load their data when shown: a team's members, settings and activity.
  const team = await createTeamViaApi(page, 'Tabbed Crew')
  await page.goto(`/team/${team.id}/manage`)
  await expect(page.getByRole('tab', { name: 'Members' })).toHaveAttribute('aria-selected', 'true')
  await expectTabsFollowQuickKeys(page, page.getByRole('tablist'))
})
