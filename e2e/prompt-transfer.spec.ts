import { readFileSync } from 'node:fs'
import { expectNoSeriousViolations } from './axe.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { expect, signUpViaApi, test } from './support.ts'

// axe-core is put into the page as a script, which the app's CSP refuses without this.
test.use({ bypassCSP: true })

test('export prompts as JSON, see a re-import change nothing, and import a Langfuse export', async ({
  page,
}) => {
  await signUpViaApi(page)
  await createPromptViaApi(page, { title: 'Greeting', name: 'support/greeting', body: 'Hello {{name}}' })
  await page.goto('/prompts')
  await page.getByRole('button', { name: 'Import / Export' }).click()
  const dialog = page.getByRole('dialog', { name: 'Import and export prompts' })

  const downloading = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Download JSON' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^promptfolio-prompts-\d{4}-\d{2}-\d{2}\.json$/)
  const exported = readFileSync((await download.path())!, 'utf8')
  expect(JSON.parse(exported).prompts[0]).toMatchObject({
    name: 'support/greeting',
    versions: [{ body: 'Hello {{name}}' }],
  })

  await dialog.getByRole('tab', { name: 'Import' }).click()
  await dialog.getByLabel('File to import').setInputFiles({
    name: 'again.json',
    mimeType: 'application/json',
    buffer: Buffer.from(exported),
  })
  await expect(dialog.getByRole('status').filter({ hasText: 'unchanged: 1' })).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled()
  await expectNoSeriousViolations(page, 'import preview')

  const langfuse = [
    {
      name: 'lf/welcome',
      version: 1,
      type: 'text',
      prompt: 'Welcome, {{user}}',
      labels: ['production'],
      tags: [],
    },
  ]
  await dialog.getByLabel('File to import').setInputFiles({
    name: 'langfuse.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(langfuse)),
  })
  const table = dialog.getByRole('table', { name: 'What the import would do' })
  await expect(table.getByRole('row', { name: /lf\/welcome/ })).toContainText('New prompt')
  await dialog.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.getByText('Imported: 1 new prompts, 0 with new versions').first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'welcome' }).first()).toBeVisible()
})
