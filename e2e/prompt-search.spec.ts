import type { Page } from '@playwright/test'
import { expectNoSeriousViolations } from './axe.ts'
import { createPromptViaApi, saveBodyViaApi } from './prompts-support.ts'
import { expect, signUpViaApi, test } from './support.ts'

const rows = (page: Page) => page.getByRole('list', { name: 'Prompts' }).locator('> li')

test.use({ bypassCSP: true })

test('search finds text of an old version, marks it, and the included prompt lists its user', async ({
  page,
}) => {
  await signUpViaApi(page)
  const tone = await createPromptViaApi(page, {
    title: 'House tone',
    name: 'tone',
    body: 'Be warm and concise.',
  })
  const reply = await createPromptViaApi(page, {
    title: 'Support reply',
    body: 'Answer the ticket with a marmalade metaphor.',
  })
  await saveBodyViaApi(page, reply.id, 'Answer the ticket. @@@langfusePrompt:name=tone|label=production@@@')
  await createPromptViaApi(page, { title: 'Unrelated' })

  await page.goto('/prompts')
  await page.getByRole('searchbox', { name: 'Search prompts' }).fill('marmal')
  // The current texts hold no "marmal": only older versions do, searched when asked.
  await expect(page.getByText('No prompts match')).toBeVisible()
  // The box follows the address, which updates as a transition: click, then wait for it.
  const olderVersions = page.getByRole('checkbox', { name: 'Older versions too' })
  await olderVersions.click()
  await expect(olderVersions).toBeChecked()
  await expect(rows(page)).toHaveCount(1)
  const row = rows(page).first()
  await expect(row.getByRole('link', { name: 'Support reply', exact: true })).toBeVisible()
  const match = row.getByTestId('search-match')
  await expect(match).toContainText('Matches in version v1')
  await expect(match.locator('mark')).toHaveText('marmal')
  await expectNoSeriousViolations(page, 'prompts list with a search match')

  await page.goto(`/prompts/${tone.id}`)
  const usedBy = page.getByRole('region', { name: 'Used by' })
  await expect(usedBy.getByRole('link', { name: 'Support reply' })).toBeVisible()
  await expectNoSeriousViolations(page, 'prompt detail with Used by')
})
