import type { Page } from '@playwright/test'
import { expectNoSeriousViolations } from './axe.ts'
import { createPromptViaApi, saveBodyViaApi } from './prompts-support.ts'
import { expect, signUpViaApi, test } from './support.ts'

/** Prompt craft: compare versions, try a prompt with its variables, lint while editing. */
test.use({ bypassCSP: true, permissions: ['clipboard-read', 'clipboard-write'] })

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

test('Compare shows what changed between two versions, inline or side by side', async ({ page }) => {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, {
    title: 'Release notes',
    body: 'Write release notes.\nKeep it friendly.',
  })
  await saveBodyViaApi(page, prompt.id, 'Write short release notes.\nKeep it friendly.\nEnd with thanks.')
  await page.goto(`/prompts/${prompt.id}`)
  await page.getByRole('button', { name: 'Compare: Version 1' }).click()
  const dialog = page.getByRole('dialog', { name: 'Compare versions' })
  await expect(dialog.getByText('+2 added, −1 removed')).toBeVisible()
  await expect(dialog.locator('[data-diff="removed"]')).toContainText('Write release notes.')
  await expect(dialog.locator('[data-diff="added"]').first()).toContainText('Write short release notes.')
  await expect(dialog.getByText('Removed:').first()).toBeAttached()
  await dialog.getByRole('button', { name: 'Side by side' }).click()
  await expect(dialog.getByRole('button', { name: 'Side by side' })).toHaveAttribute('aria-pressed', 'true')
  await dialog.getByRole('button', { name: 'Words' }).click()
  await expect(dialog.locator('ins').first()).toContainText('short')
  await expectNoSeriousViolations(page, 'compare dialog')
})

test('Try it fills in typed variables and copies the compiled prompt', async ({ page }) => {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, {
    title: 'Tips',
    body: 'Write {{count}} {{tone}} tips on {{topic}}.',
    variables: [
      { name: 'topic', type: 'string', required: true, description: 'What the tips are about' },
      { name: 'count', type: 'number', default: 3 },
      { name: 'tone', type: 'enum', values: ['calm', 'bold'], default: 'calm' },
    ],
  })
  await page.goto(`/prompts/${prompt.id}`)
  const card = page.getByRole('region', { name: 'Try it' })
  await expect(card.getByText('topic is required')).toBeVisible()
  await card.getByLabel('topic').fill('tea')
  await card.getByLabel('tone').selectOption('bold')
  await expect(card.getByText('Write 3 bold tips on tea.')).toBeVisible()
  await card.getByRole('button', { name: 'Copy compiled prompt' }).click()
  await expect.poll(() => clipboard(page)).toBe('Write 3 bold tips on tea.')
  await expectNoSeriousViolations(page, 'try it')
})

test('Try it resolves included prompts only when asked, and shows why it cannot', async ({ page }) => {
  await signUpViaApi(page)
  const tag = (name: string) => `@@@langfusePrompt:name=${name}|label=production@@@`
  const tone = await createPromptViaApi(page, { title: 'tone', body: 'Be kind to {{name}}.' })
  const letter = await createPromptViaApi(page, { title: 'Letter', body: `Dear {{name}}. ${tag('tone')}` })
  const resolves: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/resolved')) resolves.push(request.url())
  })
  await page.goto(`/prompts/${letter.id}`)
  const card = page.getByRole('region', { name: 'Try it' })
  await expect(card.getByText('their text is fetched when you try it')).toBeVisible()
  await expectNoSeriousViolations(page, 'try it before resolving')
  expect(resolves).toEqual([])
  await card.getByRole('button', { name: 'Try it with the included prompts' }).click()
  await card.getByLabel('name').fill('Ada')
  await expect(card.getByText('Dear Ada. Be kind to Ada.')).toBeVisible()
  expect(resolves).toHaveLength(1)

  // A prompt including tone 21 times is fine while tone is short. Then tone's next version includes
  // a 1,000-character text 50 times: the wide prompt would now resolve past the server's bound on a
  // resolved text, which Try it shows once asked.
  const wide = await createPromptViaApi(page, {
    title: 'wide',
    body: Array.from({ length: 21 }, () => tag('tone')).join(' '),
  })
  await createPromptViaApi(page, { title: 'long', body: 'L'.repeat(1000) })
  await saveBodyViaApi(page, tone.id, Array.from({ length: 50 }, () => tag('long')).join(' '))
  await page.goto(`/prompts/${wide.id}`)
  await card.getByRole('button', { name: 'Try it with the included prompts' }).click()
  await expect(card.getByText('longer than 1,000,000 characters: wide → tone')).toBeVisible()
})

test('Try it takes a list one item per line and stops where the API’s compile stops', async ({ page }) => {
  await signUpViaApi(page)
  const items = (count: number) => Array.from({ length: count }, (_, index) => `step ${index}`).join('\n')
  const prompt = await createPromptViaApi(page, {
    title: 'Steps',
    body: 'Steps:{{#steps}} [{{.}}]{{/steps}}',
    variables: [{ name: 'steps', type: 'list' }],
  })
  await page.goto(`/prompts/${prompt.id}`)
  const card = page.getByRole('region', { name: 'Try it' })
  await card.getByLabel('steps').fill('mix\n\nbake')
  await expect(card.getByText('Steps: [mix] [bake]')).toBeVisible()
  await card.getByLabel('steps').fill(items(101))
  await expect(card.getByRole('alert').filter({ hasText: 'steps has more than 100 items' })).toBeVisible()

  const bomb = await createPromptViaApi(page, {
    title: 'Bomb',
    body: '{{#a}}{{#a}}{{#a}}x{{/a}}{{/a}}{{/a}}',
    variables: [{ name: 'a', type: 'list' }],
  })
  await page.goto(`/prompts/${bomb.id}`)
  await card.getByLabel('a', { exact: true }).fill(items(100))
  await expect(card.getByText(/repeats its sections too often to compile/)).toBeVisible()
  await expectNoSeriousViolations(page, 'try it at its limit')
})

test('the edit page lists variables, lints them and shows what the save changes', async ({ page }) => {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, {
    title: 'Greeter',
    body: 'Say hello to {{name}}.',
    variables: [{ name: 'name' }],
  })
  await page.goto(`/prompts/${prompt.id}/edit`)
  // The form shows once the prompt has arrived, and that waits for the browser's first signed-in
  // screen to download and compile the shell and the page: 8-11 s at a load of 11-16.
  const content = page.getByLabel('Prompt Content')
  await expect(content).toHaveValue('Say hello to {{name}}.', { timeout: 30_000 })
  const panel = page.getByRole('region', { name: 'Variables' })
  await expect(panel.getByText('used in the prompt')).toBeVisible()
  await content.fill('Say hello to {{person}} from {place}.')
  await expect(page.getByText('Used but not declared: person')).toBeVisible()
  await expect(page.getByText('Declared but not used: name')).toBeVisible()
  await expect(page.getByText(/Single braces are not variables: \{place\}/)).toBeVisible()
  await page.getByText('What this save changes').click()
  await expect(page.locator('[data-diff="added"]')).toContainText('Say hello to {{person}} from {place}.')
  await panel.getByRole('button', { name: 'Declare: person' }).click()
  await expect(page.getByText('Used but not declared: person')).toHaveCount(0)
  await expectNoSeriousViolations(page, 'edit page with variables')
  // Not blocking: the save goes through with the remaining lint.
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page).toHaveURL(`/prompts/${prompt.id}`)
  await expect(page.getByRole('region', { name: 'Try it' }).getByLabel('person')).toBeVisible()
})

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' })

  test('compare, try it and the variables panel pass axe', async ({ page }) => {
    await signUpViaApi(page)
    const prompt = await createPromptViaApi(page, {
      title: 'Dark',
      body: 'Hello {{who}}.\nBye.',
      variables: [{ name: 'who', type: 'enum', values: ['you', 'me'], required: true }],
    })
    await saveBodyViaApi(page, prompt.id, 'Hello there {{who}}.\nBye.')
    await page.goto(`/prompts/${prompt.id}`)
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    await page.getByRole('region', { name: 'Try it' }).getByLabel('who').selectOption('me')
    await expect(page.getByText('Hello there me.')).toBeVisible()
    await page.getByRole('button', { name: 'Compare: Version 1' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Words' }).click()
    await expect(page.getByRole('dialog').locator('ins').first()).toContainText('there')
    await expectNoSeriousViolations(page, 'compare and try it (dark)')
    await page.goto(`/prompts/${prompt.id}/edit`)
    await page.getByLabel('Prompt Content').fill('Hello {{whom}} from {place}.')
    await page.getByText('What this save changes').click()
    await expect(page.locator('[data-diff="added"]')).toBeVisible()
    await expectNoSeriousViolations(page, 'edit page with variables (dark)')
  })
})
