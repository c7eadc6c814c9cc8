import { expectNoSeriousViolations } from './axe.ts'
import { createPromptViaApi, saveBodyViaApi } from './prompts-support.ts'
import { apiOptions, appOrigin, expect, signUpViaApi, test } from './support.ts'
import { createTeamWithMemberViaApi } from './teams-support.ts'

// axe-core is put into the page as a script, which the app's CSP refuses without this.
test.use({ bypassCSP: true })

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
  // "Set as Current" moves production too, and the history shows it without a reload.
  await page
    .getByRole('region', { name: 'Version History' })
    .getByRole('button', { name: 'Set as Current: Version 2' })
    .click()
  await expect(history.getByRole('listitem').first()).toContainText('production: v1 → v2')
  await page
    .getByRole('region', { name: 'Version History' })
    .getByRole('button', { name: 'Set as Current: Version 1' })
    .click()
  await expect(history.getByRole('listitem').first()).toContainText('production: v2 → v1')

  const snippet = page.getByRole('region', { name: 'Fetch it from code' })
  // curl first (it needs nothing installed), then the SDKs.
  await expect(snippet).toContainText(`/api/public/v2/prompts/${prompt.name}?label=production`)
  await snippet.getByRole('tab', { name: 'JavaScript' }).click()
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

test('write a chat prompt as message rows with a config, and fetch it as chat from code', async ({
  page,
}) => {
  await signUpViaApi(page)
  await page.goto('/prompts/new')
  await page.getByLabel('Title').fill('Support chat')
  await page.getByLabel('Name').fill('support/chat')
  await page.getByRole('radio', { name: /Chat/ }).check()
  await page.getByLabel('Message 1 content').fill('You are a {{tone}} agent.')
  await page.getByRole('button', { name: 'Add placeholder' }).click()
  await page.getByLabel('Placeholder 2 name').fill('history')
  await page.getByRole('button', { name: 'Add message' }).click()
  await expect(page.getByLabel('Message 3 role')).toHaveValue('user')
  await page.getByLabel('Message 3 content').fill('{{question}}')
  // Rows move with the keyboard-reachable buttons.
  await page.getByRole('button', { name: 'Move entry 3 up' }).click()
  await expect(page.getByLabel('Message 2 content')).toHaveValue('{{question}}')
  await page.getByRole('button', { name: 'Move entry 2 down' }).click()
  await page.getByText('Config (optional)').click()
  await page.getByLabel('Config (JSON)').fill('[1, 2]')
  await page.getByRole('button', { name: 'Create Prompt' }).click()
  await expect(page.getByText('Config must be a JSON object')).toBeVisible()
  await page.getByLabel('Config (JSON)').fill('{"model": "gpt-4o"}')
  await page.getByRole('button', { name: 'Create Prompt' }).click()
  await expect(page).toHaveURL(/\/prompts\/[0-9a-f-]{36}$/)

  const current = page.getByRole('region', { name: 'Current Version' })
  const entries = current.getByRole('list', { name: 'Messages' }).getByRole('listitem')
  await expect(entries).toHaveCount(3)
  await expect(entries.nth(0)).toContainText('system')
  await expect(entries.nth(1)).toContainText('Placeholder history')
  await expect(entries.nth(2)).toContainText('{{question}}')
  await expect(current).toContainText('"model": "gpt-4o"')

  const key = await page.request.post('/api/v1/api-keys', { data: { name: 'k' }, ...apiOptions() })
  const { publicKey, secretKey } = (await key.json()) as { publicKey: string; secretKey: string }
  const res = await page.request.get(`${appOrigin()}/api/public/v2/prompts/support%2Fchat`, {
    headers: { Authorization: `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString('base64')}` },
  })
  expect(await res.json()).toMatchObject({
    type: 'chat',
    config: { model: 'gpt-4o' },
    prompt: [
      { role: 'system', content: 'You are a {{tone}} agent.' },
      { type: 'placeholder', name: 'history' },
      { role: 'user', content: '{{question}}' },
    ],
  })

  // Editing keeps it a chat prompt: a removed row makes version 2.
  await page.getByRole('link', { name: 'Edit' }).click()
  await expect(page.getByRole('radio', { name: /Chat/ })).toHaveCount(0)
  await page.getByRole('button', { name: 'Remove entry 2' }).click()
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page).toHaveURL(/\/prompts\/[0-9a-f-]{36}$/)
  await expect(current.getByRole('list', { name: 'Messages' }).getByRole('listitem')).toHaveCount(2)
  await expect(current).toContainText('Version 2')
  await expectNoSeriousViolations(page, 'chat prompt detail')
})

test('a team admin protects production; a member’s save then leaves production where it was', async ({
  page,
  browser,
}) => {
  await signUpViaApi(page)
  const memberContext = await browser.newContext({ baseURL: appOrigin() })
  const member = await memberContext.newPage()
  const memberEmail = await signUpViaApi(member)
  const team = await createTeamWithMemberViaApi(page, 'Release team', { page: member, email: memberEmail })
  await page.goto(`/team/${team.id}/manage`)
  await page.getByRole('tab', { name: 'Settings' }).click()
  const card = page.getByRole('region', { name: 'Protected labels' })
  await expect(card.getByText('No label is protected')).toBeVisible()
  await card.getByLabel('Protect a label').fill('Production!')
  await card.getByRole('button', { name: 'Protect', exact: true }).click()
  await expect(card.getByRole('alert')).toContainText('Labels are 1 to 36 lowercase letters')
  await card.getByLabel('Protect a label').fill('production')
  await card.getByRole('button', { name: 'Protect', exact: true }).click()
  await expect(card.getByRole('list', { name: 'Protected labels' })).toContainText('production')
  await expectNoSeriousViolations(page, 'team settings with protected labels')

  const prompt = await createPromptViaApi(member, {
    title: 'Release notes',
    body: 'One',
    visibility: 'team',
    teamId: team.id,
  })
  await saveBodyViaApi(member, prompt.id, 'Two')
  // The member sees which labels are protected, without controls.
  await member.goto(`/team/${team.id}/manage`)
  await member.getByRole('tab', { name: 'Settings' }).click()
  await expect(member.getByText('Only team admins change which labels are protected.')).toBeVisible()
  await member.goto(`/prompts/${prompt.id}`)
  await expect(member.getByRole('region', { name: 'Current Version' })).toContainText('Version 1')
  await memberContext.close()
})

test('a member may not delete their prompt while it holds a protected label: the edit page says why', async ({
  page,
  browser,
}) => {
  await signUpViaApi(page)
  const memberContext = await browser.newContext({ baseURL: appOrigin() })
  const member = await memberContext.newPage()
  const memberEmail = await signUpViaApi(member)
  const team = await createTeamWithMemberViaApi(page, 'Guarded team', { page: member, email: memberEmail })
  const protect = await page.request.put(`/api/v1/teams/${team.id}/protected-labels`, {
    data: { labels: ['production'] },
    ...apiOptions(),
  })
  expect(protect.status()).toBe(200)
  const prompt = await createPromptViaApi(member, { title: 'Guarded', visibility: 'team', teamId: team.id })
  await member.goto(`/prompts/${prompt.id}/edit`)
  await expect(
    member.getByText(
      'Only team admins may delete this prompt: one of its versions holds a label the team protects.',
    ),
  ).toBeVisible()
  await expect(member.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0)
  await expect(member.getByRole('button', { name: 'Save Changes' })).toBeVisible()
  await memberContext.close()
})
