import { expectNoSeriousViolations } from './axe.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { expect, signUpViaApi, test, watchReads } from './support.ts'

/**
 * What a prompts list row shows a Langfuse user: the type, the labels, the number of versions, and
 * the folders of an `a/b` name, each of which filters the list to the prompts under it. In English
 * light and German dark, with axe in both; a screenshot of each is kept for review.
 */
const cases = [
  {
    colorScheme: 'light',
    locale: 'en-US',
    chat: 'Chat',
    versions: '1 version',
    folder: 'Folder support',
    open: 'Show the prompts in folder support',
  },
  {
    colorScheme: 'dark',
    locale: 'de-DE',
    chat: 'Chat',
    versions: '1 Version',
    folder: 'Ordner support',
    open: 'Prompts im Ordner support zeigen',
  },
] as const

for (const { colorScheme, locale, chat, versions, folder, open } of cases) {
  test.describe(`${locale} ${colorScheme}`, () => {
    test.use({ colorScheme, locale, reducedMotion: 'reduce', bypassCSP: true })

    test('rows show type, labels and versions; a folder of the name filters the list', async ({ page }) => {
      await signUpViaApi(page)
      await createPromptViaApi(page, {
        title: 'Triage',
        name: 'support/triage',
        type: 'chat',
        body: JSON.stringify([{ role: 'user', content: 'Sort {{ticket}}' }]),
      })
      await createPromptViaApi(page, { title: 'Reply', name: 'support/mail/reply' })
      await createPromptViaApi(page, { title: 'Elsewhere', name: 'sales-pitch' })

      await page.goto('/prompts')
      const rows = page
        .getByRole('list', { name: /^(Prompts)$/ })
        .getByRole('listitem')
        .filter({
          has: page.getByRole('heading', { level: 2 }),
        })
      await expect(rows).toHaveCount(3)
      const triage = rows.filter({ hasText: 'Triage' })
      await expect(triage.getByText(chat, { exact: true })).toBeVisible()
      await expect(triage.getByText(versions, { exact: true })).toBeVisible()
      await expect(triage.getByText('production', { exact: true })).toBeVisible()
      await expect(triage.getByTestId('prompt-name')).toContainText('support/triage')
      await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0)
      await expectNoSeriousViolations(page, `prompts list (${locale} ${colorScheme})`)
      await page.screenshot({
        path: test.info().outputPath(`prompts-list-${locale}-${colorScheme}.png`),
        fullPage: true,
      })

      await triage.getByRole('button', { name: open }).click()
      await expect(page).toHaveURL(/[?&]folder=support(&|$)/)
      await expect(rows).toHaveCount(2)
      await expect(page.getByText(folder, { exact: true })).toBeVisible()
      await expect(rows.filter({ hasText: 'Elsewhere' })).toHaveCount(0)
      await expectNoSeriousViolations(page, `prompts list in a folder (${locale} ${colorScheme})`)
      await page.screenshot({
        path: test.info().outputPath(`prompts-folder-${locale}-${colorScheme}.png`),
        fullPage: true,
      })
    })
  })
}

test('a first visit asks for the session and the list once each, side by side', async ({ page }) => {
  await signUpViaApi(page)
  await createPromptViaApi(page, { title: 'Asked once' })
  const events = watchReads(page, { session: '/api/v1/session', list: '/api/v1/prompts' })
  await page.goto('/prompts')
  await expect(page.getByRole('list', { name: 'Prompts' }).getByText('Asked once')).toBeVisible()
  expect(events.filter((event) => event.startsWith('ask')).sort()).toEqual(['ask list', 'ask session'])
  // The page's first script asks for both at once (decision 0269); the list used to be asked for
  // once the signed-in route table, the shell and the list's code had arrived and run.
  expect(events.indexOf('ask list')).toBeLessThan(events.indexOf('got session'))
})
