import type { Page } from '@playwright/test'
import { expectNoSeriousViolations } from './axe.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { shot } from './shots.ts'
import { apiOptions, appOrigin, expect, signUpViaApi, test } from './support.ts'
import { createTeamViaApi } from './teams-support.ts'

// axe-core is put into the page as a script, which the app's CSP refuses without this.
test.use({ bypassCSP: true, reducedMotion: 'reduce' })
// Each test walks several screens with an axe check on each: three times a one-screen budget.
test.slow()

async function settled(page: Page) {
  await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0)
}

async function expectActive(page: Page, entry: string) {
  const nav = page.getByRole('navigation', { name: 'Settings' })
  await expect(nav.getByRole('link', { name: entry })).toHaveAttribute('aria-current', 'page')
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1)
}

test('Settings is a hub: every settings page, the team’s too, under one sub-navigation', async ({ page }) => {
  await signUpViaApi(page)
  const team = await createTeamViaApi(page, 'Research Guild')
  await page.goto('/dashboard')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await expect(page).toHaveURL(/\/settings$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
  await expect(page.getByText('This page is not yet implemented')).toHaveCount(0)
  await expectActive(page, 'Overview')
  await settled(page)
  const teamRegion = page.getByRole('region', { name: 'Team: Research Guild' })
  await expect(teamRegion.getByRole('link', { name: /Team API keys/ })).toBeVisible()
  await expectNoSeriousViolations(page, 'settings hub')
  await shot(page, 'settings-hub')

  const personal = page.getByRole('list', { name: 'Your settings' })
  await personal.getByRole('link', { name: /API keys/ }).click()
  await expect(page).toHaveURL(/\/settings\/api$/)
  await expectActive(page, 'API keys')
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click()
  await expect(page).toHaveURL(/\/settings\/webhooks$/)
  await expectActive(page, 'Webhooks')
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Your data' }).click()
  await expect(page.getByRole('region', { name: 'Export my data' })).toBeVisible()
  await expectActive(page, 'Your data')
  await settled(page)
  await expectNoSeriousViolations(page, 'your data')
  await shot(page, 'settings-data')
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Profile' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible()
  await expectActive(page, 'Profile')

  // The team's keys open with the team chosen; its protected labels on the team's settings tab.
  await page.goto('/settings')
  await teamRegion.getByRole('link', { name: /Team API keys/ }).click()
  await expect(page).toHaveURL(new RegExp(`/settings/api\\?team=${team.id}$`))
  await expect(page.getByLabel('Keys for')).toHaveValue(team.id)
  await expectActive(page, 'API keys')
  await settled(page)
  await expectNoSeriousViolations(page, 'team API keys')
  await shot(page, 'settings-team-keys')
  await page.goBack()
  await teamRegion.getByRole('link', { name: /Team webhooks/ }).click()
  await expect(page.getByLabel('Space')).toHaveValue(team.id)
  await page.goBack()
  await teamRegion.getByRole('link', { name: /Protected labels/ }).click()
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByText('Protect a label')).toBeVisible()
})

test('the prompt page’s API Access: curl beside JavaScript and Python, and which key fetches it', async ({
  page,
}) => {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, { title: 'Meeting summary', body: 'Summarise {{notes}}.' })
  expect(prompt.name).toBe('meeting-summary')
  await page.goto(`/prompts/${prompt.id}`)
  const snippet = page.getByRole('region', { name: 'Fetch it from code' })
  await expect(snippet.getByRole('tab', { name: 'curl' })).toHaveAttribute('aria-selected', 'true')
  await expect(snippet).toContainText(`${appOrigin()}/api/public/v2/prompts/meeting-summary?label=production`)
  await expect(snippet).toContainText('personal key')
  await settled(page)
  await expectNoSeriousViolations(page, 'prompt API access')
  await shot(page, 'prompt-api-access')
  await snippet.getByRole('link', { name: 'API Access' }).click()
  await expect(page).toHaveURL(/\/settings\/api$/)
  await expect(page.getByRole('heading', { level: 1, name: 'API Access' })).toBeVisible()

  // A team prompt names its team's keys, and the link opens them.
  const team = await createTeamViaApi(page, 'Ops crew')
  const teamPrompt = await createPromptViaApi(page, {
    title: 'Weekly report / Ops',
    visibility: 'team',
    teamId: team.id,
  })
  expect(teamPrompt.name).toBe('weekly-report-ops')
  await page.goto(`/prompts/${teamPrompt.id}`)
  await expect(snippet).toContainText('key of the team “Ops crew”; a personal key answers 404')
  await snippet.getByRole('link', { name: 'API Access' }).click()
  await expect(page.getByLabel('Keys for')).toHaveValue(team.id)

  // What the curl line asks is what a key of the right space gets.
  const key = await page.request.post('/api/v1/api-keys', { data: { name: 'k' }, ...apiOptions() })
  const { publicKey, secretKey } = (await key.json()) as { publicKey: string; secretKey: string }
  const res = await page.request.get(`/api/public/v2/prompts/meeting-summary?label=production`, {
    headers: { Authorization: `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString('base64')}` },
  })
  expect(res.status()).toBe(200)
})

test.describe('German, dark', () => {
  test.use({ locale: 'de-DE', colorScheme: 'dark' })

  test('the settings hub and the prompt’s API Access', async ({ page }) => {
    await signUpViaApi(page)
    await createTeamViaApi(page, 'Forschung')
    const prompt = await createPromptViaApi(page, { title: 'Größe prüfen', body: 'Prüfe {{x}}.' })
    expect(prompt.name).toBe('grosse-prufen')
    await page.goto('/settings')
    await expect(page.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeVisible()
    await expect(
      page.getByRole('navigation', { name: 'Einstellungen' }).getByRole('link', { name: 'Übersicht' }),
    ).toHaveAttribute('aria-current', 'page')
    await settled(page)
    await expectNoSeriousViolations(page, 'settings hub (de, dark)')
    await shot(page, 'settings-hub-de-dark')
    await page.goto('/settings/data')
    await expect(page.getByRole('heading', { level: 1, name: 'Deine Daten' })).toBeVisible()
    await settled(page)
    await expectNoSeriousViolations(page, 'your data (de, dark)')
    await shot(page, 'settings-data-de-dark')
    await page.goto(`/prompts/${prompt.id}`)
    const snippet = page.getByRole('region', { name: 'Aus Code abrufen' })
    await expect(snippet).toContainText('/api/public/v2/prompts/grosse-prufen?label=production')
    await settled(page)
    await expectNoSeriousViolations(page, 'prompt API access (de, dark)')
    await shot(page, 'prompt-api-access-de-dark')
  })
})
