import type { Page } from '@playwright/test'
import { createPromptViaApi, saveBodyViaApi } from './prompts-support.ts'
import { apiOptions, expect, signUpViaApi, test, watchReads } from './support.ts'
import { createTeamWithMemberViaApi } from './teams-support.ts'

/** The rows of the prompt list (not the tag lists inside them). */
const rows = (page: Page) => page.getByRole('list', { name: 'Prompts' }).locator('> li')
const currentVersion = (page: Page) => page.getByRole('region', { name: 'Current Version' })
const history = (page: Page) => page.getByRole('region', { name: 'Version History' })
const body = (page: Page) => page.getByRole('textbox', { name: 'Prompt Content' })

test('create a prompt, edit it to version 2, set version 1 current, and bring version 2 back', async ({
  page,
}) => {
  await signUpViaApi(page)
  await page.goto('/prompts')
  await expect(page.getByRole('heading', { name: 'No prompts yet' })).toBeVisible()
  await expect(page.getByText('Create your first prompt to get started')).toBeVisible()
  await page.getByRole('link', { name: 'New Prompt' }).click()

  await expect(page.getByRole('heading', { name: 'Create New Prompt' })).toBeVisible()
  const create = page.getByRole('button', { name: 'Create Prompt' })
  await expect(create).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Copy as Markdown' })).toBeDisabled()
  await expect(page.getByText('Fill in title and prompt content to create')).toBeVisible()
  await expect(
    page.getByText('Tip: use double curly braces for variables, like {{topic}} or {{audience}}.'),
  ).toBeVisible()
  await page.getByLabel('Title', { exact: true }).focus()
  await body(page).focus()
  await expect(page.getByText('Title is required')).toBeVisible()
  await page.getByLabel('Description').focus()
  await expect(page.getByText('Prompt content is required')).toBeVisible()

  await page.getByLabel('Title', { exact: true }).fill('Meeting summary')
  await page.getByLabel('Description').fill('Turns notes into a summary.')
  await body(page).fill('Summarise {notes} in three bullets.')
  await expect(create).toBeEnabled()

  // No team yet: Team visibility is not available and says why.
  await expect(page.getByRole('radio', { name: /^Private/ })).toBeChecked()
  await expect(page.getByRole('radio', { name: /^Team/ })).toBeDisabled()
  await expect(page.getByText('You are not in a team yet.', { exact: false })).toBeVisible()

  const tagBox = page.getByRole('textbox', { name: 'Tags' })
  await tagBox.fill('work')
  await tagBox.press('Enter')
  await tagBox.fill('  summary ')
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await tagBox.fill('work')
  await tagBox.press('Enter')
  await tagBox.fill('draft')
  await tagBox.press('Enter')
  const tags = page.getByRole('list', { name: 'Tags' }).getByRole('listitem')
  await expect(tags).toHaveText(['work', 'summary', 'draft'])
  await page.getByRole('button', { name: 'Remove tag draft' }).click()
  await expect(tags).toHaveText(['work', 'summary'])

  await create.click()
  await page.waitForURL(/\/prompts\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Meeting summary' })).toBeVisible()
  await expect(page.getByText('1 version', { exact: true })).toBeVisible()
  await expect(currentVersion(page)).toContainText('Version 1')
  await expect(currentVersion(page)).toContainText('Initial version')
  await expect(currentVersion(page).locator('pre')).toHaveText('Summarise {notes} in three bullets.')
  await expect(history(page)).toHaveCount(0)

  await page.getByRole('link', { name: 'Edit' }).click()
  await expect(page.getByRole('heading', { name: 'Edit Prompt' })).toBeVisible()
  await expect(body(page)).toHaveValue('Summarise {notes} in three bullets.')
  await body(page).fill('Summarise {notes} in five bullets with owners.')
  await page.getByLabel('What changed? (optional)').fill('Five bullets')
  await page.getByRole('button', { name: 'Save Changes' }).click()

  await expect(currentVersion(page)).toContainText('Version 2')
  await expect(currentVersion(page)).toContainText('Five bullets')
  await expect(page.getByText('2 versions', { exact: true })).toBeVisible()
  const versionOne = history(page).getByRole('listitem', { name: 'Version 1' })
  await expect(history(page).getByRole('listitem', { name: 'Version 2' })).toContainText('Current')
  await expect(history(page).getByRole('button', { name: 'Set as Current: Version 2' })).toHaveCount(0)
  await versionOne.getByRole('button', { name: 'Set as Current: Version 1' }).click()
  await expect(page.getByText('Version 1 is now current', { exact: true })).toBeVisible()
  await expect(currentVersion(page)).toContainText('Version 1')
  await expect(currentVersion(page).locator('pre')).toHaveText('Summarise {notes} in three bullets.')

  // The editor starts from version 1 now; 'Use This Version' brings version 2's body back.
  await page.getByRole('link', { name: 'Edit' }).click()
  await expect(body(page)).toHaveValue('Summarise {notes} in three bullets.')
  await history(page).getByRole('button', { name: 'Use This Version: Version 2' }).click()
  await expect(page.getByText('Switched to version 2')).toBeVisible()
  await expect(body(page)).toHaveValue('Summarise {notes} in five bullets with owners.')
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(currentVersion(page)).toContainText('Version 3')
  await expect(currentVersion(page)).toContainText('Updated prompt content')
  await expect(currentVersion(page).locator('pre')).toHaveText(
    'Summarise {notes} in five bullets with owners.',
  )
  await expect(page.getByText('3 versions', { exact: true })).toBeVisible()
})

test('search, tag filter and scope live in the URL; Load more and scrolling to the end fetch the next 20', async ({
  page,
}) => {
  await signUpViaApi(page)
  await createPromptViaApi(page, { title: 'Code reviewer', tags: ['code', 'work'] })
  await createPromptViaApi(page, { title: 'Email summariser', tags: ['email'] })
  await createPromptViaApi(page, { title: 'Email writer', tags: ['email', 'work'] })
  await page.goto('/prompts')
  await expect(rows(page)).toHaveCount(3)
  await expect(rows(page).first()).toContainText('Email writer')
  await expect(rows(page).first()).toContainText('Current version v1')

  await page.getByRole('searchbox', { name: 'Search prompts' }).fill('EMAIL')
  await expect(page).toHaveURL(/search=EMAIL/)
  await expect(rows(page)).toHaveCount(2)
  await page.reload()
  await expect(page.getByRole('searchbox', { name: 'Search prompts' })).toHaveValue('EMAIL')
  await expect(rows(page)).toHaveCount(2)

  await page.getByRole('button', { name: /^Tags/ }).click()
  await page.getByRole('menuitemcheckbox', { name: 'work' }).click()
  await page.keyboard.press('Escape')
  await expect(page).toHaveURL(/tags=work/)
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page)).toContainText('Email writer')
  const strip = page.getByRole('region', { name: 'Active filters' })
  await expect(strip).toContainText('“EMAIL”')
  await strip.getByRole('button', { name: 'Remove filter work' }).click()
  await expect(rows(page)).toHaveCount(2)
  await strip.getByRole('button', { name: 'Clear all filters' }).click()
  await expect(rows(page)).toHaveCount(3)
  await expect(page.getByRole('searchbox', { name: 'Search prompts' })).toHaveValue('')

  // Every checked tag must be present; 'Clear all' unticks them.
  await page.getByRole('button', { name: /^Tags/ }).click()
  await page.getByRole('menuitemcheckbox', { name: 'code' }).click()
  await page.getByRole('menuitemcheckbox', { name: 'work' }).click()
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page)).toContainText('Code reviewer')
  await page.getByRole('menuitem', { name: 'Clear all' }).click()
  await expect(rows(page)).toHaveCount(3)

  await page.getByRole('radio', { name: 'Team Prompts' }).click()
  await expect(page).toHaveURL(/scope=team/)
  await expect(page.getByText('No team prompts available')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Create Prompt' })).toBeVisible()
  await page.getByRole('radio', { name: 'My Prompts' }).click()
  await expect(rows(page)).toHaveCount(3)

  for (let i = 1; i <= 38; i++) await createPromptViaApi(page, { title: `Bulk ${i}` })
  await page.reload()
  await expect(rows(page)).toHaveCount(20)
  // Load more from the keyboard, without scrolling: scrolling to the end loads by itself (below).
  const loadMore = page.getByRole('button', { name: 'Load more' })
  await loadMore.evaluate((button: HTMLElement) => button.focus({ preventScroll: true }))
  await page.keyboard.press('Enter')
  await expect(rows(page)).toHaveCount(40)
  await loadMore.scrollIntoViewIfNeeded()
  await expect(rows(page)).toHaveCount(41)
  await expect(rows(page).last()).toContainText('Code reviewer')
  await expect(loadMore).toHaveCount(0)
})

test.describe('copying', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

  const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

  test('Copy as Markdown gives the export in the spec order; Copy gives the body', async ({ page }) => {
    await signUpViaApi(page)
    const prompt = await createPromptViaApi(page, {
      title: 'Release notes',
      description: 'Drafts release notes.',
      tags: ['docs', 'release'],
      body: 'Write release notes for {version}.',
    })
    await page.request.patch(`/api/v1/prompts/${prompt.id}`, {
      data: { body: 'Write short release notes for {version}.', changelog: 'Shorter' },
      ...apiOptions(),
    })
    await page.goto(`/prompts/${prompt.id}`)
    await currentVersion(page).getByRole('button', { name: 'Copy as Markdown' }).click()
    await expect(currentVersion(page).getByRole('button', { name: 'Copied!' })).toBeVisible()
    expect(await clipboard(page)).toBe(
      [
        '# Release notes',
        '',
        'Drafts release notes.',
        '',
        '- **Tags:** docs, release',
        '- **Visibility:** Private',
        '- **Version:** 2',
        '- **Changelog:** Shorter',
        '',
        '```',
        'Write short release notes for {version}.',
        '```',
        '',
      ].join('\n'),
    )
    // 'Copied!' lasts 2 s, then the label returns.
    await expect(currentVersion(page).getByRole('button', { name: 'Copy as Markdown' })).toBeVisible()

    await currentVersion(page).getByRole('button', { name: 'Copy', exact: true }).click()
    expect(await clipboard(page)).toBe('Write short release notes for {version}.')
    // A history entry lists only a preview: its body is fetched when copied, so wait for 'Copied!'.
    const versionOne = history(page).getByRole('listitem', { name: 'Version 1' })
    await versionOne.getByRole('button', { name: 'Copy' }).click()
    await expect(versionOne.getByRole('button', { name: 'Copied!' })).toBeVisible()
    expect(await clipboard(page)).toBe('Write release notes for {version}.')

    await page.goto('/prompts')
    await rows(page).first().getByRole('button', { name: 'Copy' }).click()
    await expect(rows(page).first().getByRole('button', { name: 'Copied!' })).toBeVisible()
    expect(await clipboard(page)).toBe('Write short release notes for {version}.')
  })

  test('when the Clipboard API fails the fallback copies; when both fail the spec alert shows', async ({
    page,
  }) => {
    // The Clipboard API refuses (an insecure context or a denied permission would do the same).
    await page.addInitScript(() => {
      const denied = () => Promise.reject(new DOMException('denied', 'NotAllowedError'))
      navigator.clipboard.writeText = denied
      // A row fetches the body it copies, so it hands the clipboard a promise: write(), not writeText().
      navigator.clipboard.write = denied
    })
    await signUpViaApi(page)
    await createPromptViaApi(page, { body: 'Copied the old way.' })
    await page.goto('/prompts')
    await rows(page).first().getByRole('button', { name: 'Copy' }).click()
    await expect(rows(page).first().getByRole('button', { name: 'Copied!' })).toBeVisible()
    expect(await clipboard(page)).toBe('Copied the old way.')

    // The selection fallback fails too.
    await page.evaluate(() => {
      document.execCommand = () => false
    })
    await expect(rows(page).first().getByRole('button', { name: 'Copy' })).toBeVisible()
    await rows(page).first().getByRole('button', { name: 'Copy' }).click()
    await expect(
      page.getByText('Failed to copy prompt to clipboard. Please try again.', { exact: true }),
    ).toBeVisible()
    await expect(rows(page).first().getByRole('button', { name: 'Copied!' })).toHaveCount(0)
  })
})

test('a first visit asks for the prompt and its history once each, side by side', async ({ page }) => {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, { title: 'Asked once' })
  await saveBodyViaApi(page, prompt.id, 'Version two.')
  const base = `/api/v1/prompts/${prompt.id}`
  const events = watchReads(page, { prompt: base, versions: `${base}/versions` })
  await page.goto(`/prompts/${prompt.id}`)
  await expect(history(page).getByRole('listitem', { name: 'Version 2' })).toBeVisible()
  expect(events.filter((event) => event.startsWith('ask')).sort()).toEqual(['ask prompt', 'ask versions'])
  // The route asks for both as it is entered; the screen used to ask for the history only once the
  // prompt had arrived.
  expect(events.indexOf('ask versions')).toBeLessThan(events.indexOf('got prompt'))
})

test('delete asks first, then removes the prompt', async ({ page }) => {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, { title: 'Short-lived' })
  await page.goto(`/prompts/${prompt.id}/edit`)
  await page.getByRole('button', { name: 'Delete' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Delete prompt?' })
  await expect(dialog).toContainText(
    'Are you sure you want to delete this prompt? This action cannot be undone.',
  )
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()

  await page.getByRole('button', { name: 'Delete' }).click()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await page.waitForURL(/\/prompts$/)
  await expect(page.getByText('Prompt deleted', { exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No prompts yet' })).toBeVisible()

  await page.goto(`/prompts/${prompt.id}`)
  await expect(page.getByRole('heading', { name: 'Prompt not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Back to prompts' }).click()
  await expect(page).toHaveURL(/\/prompts$/)
})

test('a save based on an outdated version is refused, and can be redone on top of the latest', async ({
  page,
}) => {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, { body: 'First body' })
  await page.goto(`/prompts/${prompt.id}/edit`)
  await expect(body(page)).toHaveValue('First body')
  await saveBodyViaApi(page, prompt.id, 'Saved in another tab')

  await body(page).fill('My own edit')
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'version 2 is now current' })).toBeVisible()
  await page.getByRole('button', { name: 'Refresh and keep my changes' }).click()
  await expect(page.getByText('You are now editing on top of version 2.', { exact: false })).toBeVisible()
  await expect(body(page)).toHaveValue('My own edit')
  await expect(history(page).getByRole('listitem', { name: 'Version 2' })).toBeVisible()
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(currentVersion(page)).toContainText('Version 3')
  await expect(currentVersion(page).locator('pre')).toHaveText('My own edit')
})

test("a team member sees the owner's team prompt, without Edit, and not the private one", async ({
  page,
  browser,
}) => {
  const ownerEmail = await signUpViaApi(page)
  const memberContext = await browser.newContext()
  const member = await memberContext.newPage()
  const memberEmail = await signUpViaApi(member)
  await createTeamWithMemberViaApi(page, 'Writers', { page: member, email: memberEmail })
  const privatePrompt = await createPromptViaApi(page, { title: 'My secret' })

  // The owner shares a new prompt with the team: the only team is chosen for them.
  await page.goto('/prompts/new')
  await page.getByLabel('Title', { exact: true }).fill('Team greeting')
  await body(page).fill('Greet {name} warmly.')
  await page.getByRole('radio', { name: /^Team/ }).check()
  await expect(page.getByRole('combobox', { name: 'Team' })).toHaveValue(/[0-9a-f-]{36}/)
  await page.getByRole('button', { name: 'Create Prompt' }).click()
  await expect(page.getByText('Team · Writers')).toBeVisible()
  const promptId = page.url().split('/').pop()!
  await saveBodyViaApi(page, promptId, 'Greet {name} warmly and briefly.')

  await member.goto('/prompts?scope=team')
  await expect(rows(member)).toHaveCount(1)
  await expect(rows(member)).toContainText('Team greeting')
  await expect(rows(member)).toContainText(`by ${ownerEmail}`)
  await expect(rows(member).getByRole('link', { name: /^Edit/ })).toHaveCount(0)
  await rows(member).getByRole('link', { name: /^View/ }).click()

  await expect(member.getByRole('heading', { level: 1, name: 'Team greeting' })).toBeVisible()
  await expect(member.getByText(`by ${ownerEmail}`, { exact: true })).toBeVisible()
  await expect(member.getByRole('link', { name: 'Edit' })).toHaveCount(0)
  await expect(history(member).getByRole('button', { name: /Set as Current/ })).toHaveCount(0)
  await expect(history(member).getByRole('button', { name: /^View/ })).toHaveCount(2)

  await member.goto(`/prompts/${promptId}/edit`)
  await expect(
    member.getByRole('heading', { name: 'You do not have permission to edit this prompt' }),
  ).toBeVisible()
  await member.getByRole('link', { name: 'Back to prompt' }).click()
  await expect(member.getByRole('heading', { level: 1, name: 'Team greeting' })).toBeVisible()

  await member.goto(`/prompts/${privatePrompt.id}`)
  await expect(member.getByRole('heading', { name: 'Prompt not found' })).toBeVisible()
  await memberContext.close()
})

test.describe('in German', () => {
  test.use({ locale: 'de-DE' })

  test('the list and the form speak German, including the validation', async ({ page }) => {
    await signUpViaApi(page)
    await page.goto('/prompts')
    await expect(page.getByText('Verwalte deine KI-Prompts und Vorlagen')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Noch keine Prompts' })).toBeVisible()
    await page.getByRole('link', { name: 'Neuer Prompt' }).click()
    await expect(page.getByRole('heading', { name: 'Neuen Prompt erstellen' })).toBeVisible()
    await page.getByLabel('Titel', { exact: true }).focus()
    await page.getByLabel('Beschreibung').focus()
    await expect(page.getByText('Titel ist erforderlich')).toBeVisible()
    await page.getByLabel('Titel', { exact: true }).fill('Begrüßung')
    await page.getByRole('textbox', { name: 'Prompt-Inhalt' }).fill('Begrüße {name}.')
    await page.getByRole('button', { name: 'Prompt erstellen' }).click()
    await expect(page.getByRole('region', { name: 'Aktuelle Version' })).toContainText('Erste Version')
  })
})
