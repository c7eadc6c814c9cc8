import { createPromptViaApi } from './prompts-support.ts'
import { expect, signUpViaApi, test } from './support.ts'

test('API Access shows how to connect an MCP client, with a new key filled in once', async ({ page }) => {
  await signUpViaApi(page)
  await createPromptViaApi(page, { title: 'Greeting', name: 'support/greeting', body: 'Hello {{name}}' })
  await page.goto('/settings/api')
  const mcp = page.getByRole('region', { name: 'Use it from AI assistants (MCP)' })
  const origin = new URL(page.url()).origin
  await expect(mcp).toContainText(`${origin}/api/public/mcp`)
  await expect(mcp).toContainText('"mcpServers"')
  await expect(mcp).toContainText('Bearer sk-pf-…')

  await page.getByRole('button', { name: 'Create key' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Create an API key' })
  await dialog.getByLabel('Name').fill('Assistant')
  await dialog.getByRole('button', { name: 'Create key' }).click()
  const secretKey = await dialog.getByLabel('Secret key', { exact: true }).inputValue()
  await expect(dialog).toContainText(`"Authorization": "Bearer ${secretKey}"`)
  await dialog.getByRole('button', { name: 'Done' }).click()

  // The block works as shown: the key lists the prompt over MCP.
  const listed = await page.request.post('/api/public/mcp', {
    headers: { Authorization: `Bearer ${secretKey}`, Accept: 'application/json, text/event-stream' },
    data: { jsonrpc: '2.0', id: 1, method: 'prompts/list', params: {} },
  })
  expect(listed.status()).toBe(200)
  expect(await listed.json()).toMatchObject({
    result: { prompts: [{ name: 'support/greeting', arguments: [{ name: 'name', required: false }] }] },
  })
})
