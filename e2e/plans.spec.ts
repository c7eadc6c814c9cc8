import { cutTexts } from './layout-support.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { shot } from './shots.ts'
import { ADMIN, apiOptions, expect, signInViaApi, signUpViaApi, test, uniqueEmail } from './support.ts'
import { createTeamViaApi, inviteViaApi } from './teams-support.ts'

// Runs in the 'plans' project: its own app server with PLANS=on (playwright.config.ts).

test('the plan banner near the limit, the paywall on the 11th prompt, and choosing a plan on /billing', async ({
  page,
}) => {
  await signUpViaApi(page)
  for (let i = 1; i <= 8; i++) await createPromptViaApi(page, { title: `Prompt ${i}` })

  // 8 of 10: the banner warns, with the usage.
  await page.goto('/prompts')
  const banner = page.getByRole('region', { name: 'Plan' })
  // The first page of a fresh server may take a while on a busy machine.
  await expect(banner).toContainText('Free Trial · 14 days left', { timeout: 30_000 })
  await expect(banner).toContainText('8 of 10 prompts')

  // At 10 of 10, New Prompt opens the paywall instead of the form.
  for (let i = 9; i <= 10; i++) await createPromptViaApi(page, { title: `Prompt ${i}` })
  await page.reload()
  await expect(banner).toContainText('10 of 10 prompts')
  await page.getByRole('link', { name: 'New Prompt' }).click()
  const paywall = page.getByRole('dialog', { name: 'Limit reached' })
  await expect(paywall).toContainText('You have reached the limit of 10 prompts on your plan.')
  await expect(page).toHaveURL(/\/prompts$/)
  await paywall.getByRole('button', { name: 'Cancel' }).click()
  await expect(paywall).toBeHidden()
  await page.getByRole('link', { name: 'New Prompt' }).click()
  await page.getByRole('dialog', { name: 'Limit reached' }).getByRole('link', { name: 'Choose plan' }).click()

  // /billing: the personal space, its trial and usage, the plans side by side.
  await expect(page).toHaveURL(/\/billing$/)
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible()
  const personal = page.getByRole('region', { name: /^Personal:/ })
  await expect(personal).toContainText('Free Trial · 14 days left')
  await expect(personal.getByRole('progressbar', { name: '10 of 10 prompts' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  )
  await personal.getByRole('button', { name: 'Request Pro' }).click()
  await expect(
    page.getByText('Request for Pro sent. An administrator will activate it.', { exact: true }),
  ).toBeVisible()
  await expect(personal.getByRole('button', { name: 'Request pending' })).toBeDisabled()
  await expect(personal).toContainText('Pending')

  await personal.getByRole('button', { name: 'Choose Free' }).click()
  await expect(page.getByText('Your plan is now Free', { exact: true })).toBeVisible()
  const free = personal.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Free' }) })
  await expect(free).toHaveAttribute('aria-current', 'true')
  await expect(free).toContainText('Current plan')
  await expect(free).toContainText('API access locked')
  await expect(personal).toContainText('Withdrawn')

  // Free locks the API: /settings/api says so.
  await page.goto('/settings/api')
  await expect(page.getByText('API access locked')).toBeVisible()
})

test('the paywall also opens when the server refuses the create (plan_limit)', async ({ page }) => {
  await signUpViaApi(page)
  for (let i = 1; i <= 9; i++) await createPromptViaApi(page, { title: `Prompt ${i}` })
  await page.goto('/prompts/new')
  await page.getByLabel('Title', { exact: true }).fill('One too many')
  await page.getByRole('textbox', { name: 'Prompt Content' }).fill('Hello')
  // Meanwhile another tab created the tenth.
  await createPromptViaApi(page, { title: 'Prompt 10' })
  await page.getByRole('button', { name: 'Create Prompt' }).click()
  const paywall = page.getByRole('dialog', { name: 'Limit reached' })
  await expect(paywall).toContainText('You have reached the limit of 10 prompts on your plan.')
  await expect(paywall.getByRole('progressbar', { name: '10 of 10 prompts' })).toBeVisible()
  await expect(page).toHaveURL(/\/prompts\/new$/)
})

test("inviting a 6th member to a trial team opens the paywall with the team's usage", async ({ page }) => {
  await signUpViaApi(page)
  const team = await createTeamViaApi(page, 'Research Guild')
  for (let i = 0; i < 4; i++) await inviteViaApi(page, team.id, uniqueEmail('invitee'))
  await page.goto(`/team/${team.id}/manage`)
  await page.getByRole('textbox', { name: 'Email' }).fill(uniqueEmail('sixth'))
  await page.getByRole('button', { name: 'Send invitation' }).click()
  const paywall = page.getByRole('dialog', { name: 'Limit reached' })
  await expect(paywall).toContainText('This team has reached its limit of 5 members')
  await expect(paywall.getByRole('progressbar', { name: '5 of 5 members' })).toBeVisible()
  await paywall.getByRole('link', { name: 'Choose plan' }).click()
  await expect(page.getByRole('region', { name: 'Team: Research Guild' })).toContainText('5 of 5 members')
})

test('the Team Prompts scope shows the team’s plan and usage, not the personal limit', async ({ page }) => {
  test.slow()
  await signUpViaApi(page)
  for (let i = 1; i <= 10; i++) await createPromptViaApi(page, { title: `Prompt ${i}` })
  const team = await createTeamViaApi(page, 'Research Guild')
  for (let i = 1; i <= 5; i++) {
    await createPromptViaApi(page, { title: `Team prompt ${i}`, visibility: 'team', teamId: team.id })
  }
  await page.goto('/prompts')
  await expect(page.getByRole('region', { name: 'Plan', exact: true })).toContainText('10 of 10 prompts', {
    timeout: 30_000,
  })

  await page.goto('/prompts?scope=team')
  await expect(page.getByText('Team prompt 5').first()).toBeVisible()
  await expect(page.getByText('10 of 10 prompts')).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Plan', exact: true })).toHaveCount(0)

  // With 4 more invited the team is at 5 of 5 members: its own banner says so, and names it.
  for (let i = 0; i < 4; i++) await inviteViaApi(page, team.id, uniqueEmail('invitee'))
  await page.reload()
  const teamBanner = page.getByRole('region', { name: 'Plan of the team “Research Guild”' })
  await expect(teamBanner).toContainText('5 of 5 members')
  await expect(teamBanner).toContainText('Team: Research Guild')
  await expect(page.getByText('10 of 10 prompts')).toHaveCount(0)
})

test.describe('a global admin with plans on, in German and dark', () => {
  test.use({ locale: 'de-DE', colorScheme: 'dark' })

  test('sees the plan mode, sets a plan in the users table whose choices show whole, and lifts a paywall on the spot', async ({
    page,
    browser,
  }) => {
    test.slow()
    // Someone on the trial, as the users table will show them.
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL })
    const member = await context.newPage()
    const email = await signUpViaApi(member, uniqueEmail('trial'))
    await context.close()

    await signInViaApi(page, ADMIN.email, ADMIN.password)
    // The admin's own language choice wins over the browser's: make it German for this test.
    const german = await page.request.patch('/api/v1/profile', { data: { locale: 'de' }, ...apiOptions() })
    expect(german.status()).toBe(200)
    await page.goto('/admin')
    // The heaviest screen to compile: a first visit on a loaded machine has taken over 10 s.
    await expect(page.getByText('Tarife sind an (PLANS=on)')).toBeVisible({ timeout: 30_000 })
    await page.getByRole('searchbox', { name: 'Benutzer nach E-Mail suchen' }).fill(email)
    const row = page.getByTestId('admin-user-row').filter({ hasText: email })
    const plan = row.getByRole('combobox', { name: `Tarif von ${email}` })
    await expect(plan).toHaveValue('')
    await expect(plan.locator('option:checked')).toHaveText('Kostenlose Testphase')
    // The longest choice ("Kostenlose Testphase") fits its box.
    expect(await cutTexts(plan)).toEqual([])
    await shot(page, 'admin-plan-select-de-dark')
    await plan.selectOption({ label: 'Profi' })
    await expect(page.getByText(`Tarif von ${email} aktualisiert`, { exact: true })).toBeVisible()
    await page.reload()
    await expect(
      page
        .getByTestId('admin-user-row')
        .filter({ hasText: email })
        .getByRole('combobox', { name: `Tarif von ${email}` }),
    ).toHaveValue('pro')

    // The admin's own trial runs out of prompts: the paywall offers to grant the plan right there.
    for (let i = 1; i <= 10; i++) await createPromptViaApi(page, { title: `Admin prompt ${i}` })
    await page.goto('/prompts')
    await page.getByRole('link', { name: 'Neuer Prompt' }).click()
    const paywall = page.getByRole('dialog', { name: 'Limit erreicht' })
    await expect(paywall).toContainText('Du bist globaler Admin dieser Installation')
    await paywall.getByRole('button', { name: 'Profi gewähren' }).click()
    await expect(page.getByText('Profi gewährt', { exact: true })).toBeVisible()
    await expect(paywall).toBeHidden()
    await page.getByRole('link', { name: 'Neuer Prompt' }).click()
    await expect(page).toHaveURL(/\/prompts\/new$/)
  })
})
