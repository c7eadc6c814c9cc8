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

test('import streams its progress, and a broken reference is shown before anything is imported', async ({
  page,
}) => {
  await signUpViaApi(page)
  await page.goto('/prompts')
  await page.getByRole('button', { name: 'Import / Export' }).click()
  const dialog = page.getByRole('dialog', { name: 'Import and export prompts' })
  await dialog.getByRole('tab', { name: 'Import' }).click()

  const broken = {
    prompts: [
      { name: 'base', title: 'Base', versions: [{ body: 'Base text' }] },
      {
        name: 'uses',
        title: 'Uses',
        versions: [{ body: '@@@langfusePrompt:name=gone|label=production@@@' }],
      },
    ],
  }
  await dialog.getByLabel('File to import').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(broken)),
  })
  const table = dialog.getByRole('table', { name: 'What the import would do' })
  await expect(table.getByRole('row', { name: /uses/ })).toContainText(
    'Conflict (a reference that does not resolve)',
  )
  await expect(table.getByRole('row', { name: /uses/ })).toContainText('gone (label production)')
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled()

  // 40 prompts, 10% including the first: the server answers a progress line per prompt done.
  const prompts = Array.from({ length: 40 }, (_, i) => ({
    name: `bulk/p${i}`,
    title: `Bulk ${i}`,
    versions: [
      { body: i > 0 && i % 10 === 0 ? '@@@langfusePrompt:name=bulk/p0|label=production@@@' : `Text ${i}` },
    ],
  }))
  const previewed = page.waitForResponse((res) => res.url().endsWith('/api/v1/prompts/import'))
  await dialog.getByLabel('File to import').setInputFiles({
    name: 'bulk.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ prompts })),
  })
  const preview = await previewed
  expect(preview.headers()['content-type']).toBe('application/x-ndjson')
  const lines = (await preview.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  expect(lines[0]).toEqual({ progress: { done: 0, total: 40 } })
  expect(lines.at(-2)).toEqual({ progress: { done: 40, total: 40 } })
  expect(lines.at(-1).result).toMatchObject({ dryRun: true, created: 40 })
  await expect(dialog.getByRole('status').filter({ hasText: 'New prompts: 40' })).toBeVisible()

  const imported = page.waitForResponse((res) => res.url().endsWith('/api/v1/prompts/import'))
  await dialog.getByRole('button', { name: 'Import', exact: true }).click()
  expect((await (await imported).text()).split('\n').filter(Boolean).length).toBeGreaterThan(2)
  await expect(page.getByText('Imported: 40 new prompts, 0 with new versions').first()).toBeVisible()
})
