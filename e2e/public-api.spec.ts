import { createPromptViaApi, saveBodyViaApi } from './prompts-support.ts'
import { apiOptions, appOrigin, expect, signUpViaApi, test } from './support.ts'

test('create an API key, see its secret once, fetch a prompt with it, and revoke it', async ({ page }) => {
  await signUpViaApi(page)
  await createPromptViaApi(page, { title: 'Greeting', name: 'support/greeting', body: 'Hello {{name}}' })
  await page.goto('/settings/api')
  await expect(page.getByRole('heading', { name: 'API Access', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No API keys yet' })).toBeVisible()

  await page.getByRole('button', { name: 'Create key' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Create an API key' })
  await dialog.getByRole('button', { name: 'Create key' }).click()
  await expect(dialog.getByText('Name is required')).toBeVisible()
  await dialog.getByLabel('Name').fill('Build server')
  await dialog.getByLabel('Scope').selectOption('read')
  await dialog.getByRole('button', { name: 'Create key' }).click()
  await expect(dialog.getByText('Copy the secret key now')).toBeVisible()
  const publicKey = await dialog.getByLabel('Public key', { exact: true }).inputValue()
  const secretKey = await dialog.getByLabel('Secret key', { exact: true }).inputValue()
  expect(publicKey).toMatch(/^pk-pf-/)
  expect(secretKey).toMatch(/^sk-pf-/)
  await dialog.getByRole('button', { name: 'Done' }).click()

  const row = page.getByRole('list', { name: 'Keys' }).getByRole('listitem', { name: 'Build server' })
  await expect(row).toContainText(publicKey)
  await expect(row).toContainText('Never used')
  // The secret is never shown again.
  await expect(page.getByText(secretKey)).toHaveCount(0)

  const basic = `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString('base64')}`
  const fetched = await page.request.get(`/api/public/v2/prompts/${encodeURIComponent('support/greeting')}`, {
    headers: { Authorization: basic },
  })
  expect(fetched.status()).toBe(200)
  expect(await fetched.json()).toMatchObject({
    name: 'support/greeting',
    version: 1,
    prompt: 'Hello {{name}}',
  })

  await page.reload()
  await expect(row).toContainText('Last used')
  await row.getByRole('button', { name: 'Revoke: Build server' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click()
  await expect(page.getByRole('heading', { name: 'No API keys yet' })).toBeVisible()
  const refused = await page.request.get('/api/public/v2/prompts/support%2Fgreeting', {
    headers: { Authorization: basic },
  })
  expect(refused.status()).toBe(401)
})

test('labels on the detail page: move a label, see the history, revert, and copy the snippet', async ({
  page,
}) => {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, { title: 'Triage', body: 'Version one' })
  await saveBodyViaApi(page, prompt.id, 'Version two')
  await page.goto(`/prompts/${prompt.id}`)
  await expect(page.getByText(`Name: ${prompt.name}`, { exact: false }).first()).toBeVisible()

  const labels = page.getByRole('region', { name: 'Labels' })
  await labels.getByLabel('Label', { exact: true }).fill('staging')
  await labels.getByLabel('Version').selectOption({ label: 'v1' })
  await labels.getByRole('button', { name: 'Move label' }).click()
  await expect(page.getByText('Label “staging” is now on version 1').first()).toBeVisible()
  const history = labels.getByRole('region', { name: 'Label history' })
  await expect(history.getByRole('listitem').first()).toContainText('staging: none → v1')
  await expect(
    page.getByRole('region', { name: 'Version History' }).getByRole('listitem', { name: 'Version 1' }),
  ).toContainText('staging')

  // production moved by the save (v1 → v2); revert it in one click.
  await history.getByRole('button', { name: 'Revert: production: v1 → v2' }).click()
  await expect(page.getByText('Label change reverted').first()).toBeVisible()
  await expect(history.getByRole('listitem').first()).toContainText('production: v2 → v1')

  const snippet = page.getByRole('region', { name: 'Fetch it from code' })
  await expect(snippet).toContainText(`langfuse.prompt.get("${prompt.name}"`)
  await snippet.getByRole('tab', { name: 'Python' }).click()
  await expect(snippet).toContainText(`langfuse.get_prompt("${prompt.name}"`)

  // The API sees what the page shows.
  const key = await page.request.post('/api/v1/api-keys', { data: { name: 'k' }, ...apiOptions() })
  const { publicKey, secretKey } = (await key.json()) as { publicKey: string; secretKey: string }
  const res = await page.request.get(
    `${appOrigin()}/api/public/v2/prompts/${encodeURIComponent(prompt.name)}`,
    {
      headers: { Authorization: `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString('base64')}` },
    },
  )
  expect(((await res.json()) as { version: number }).version).toBe(1)
})
