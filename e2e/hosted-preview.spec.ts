import { expect, test, uniqueEmail } from './support.ts'

/**
 * A hosted preview deployment (APP_PREVIEW=1: the run's second app server, playwright.config.ts):
 * Google sign-in redirects this page to the provider on a desktop too, where a popup would open
 * elsewhere (e2e/accounts.spec.ts has the popup and the phone's same-window sign-in).
 */
test('Google sign-in redirects the page itself in a hosted preview, and signs the user in', async ({
  page,
}) => {
  const email = uniqueEmail('google-preview')
  const popups: string[] = []
  page.on('popup', (popup) => popups.push(popup.url()))
  await page.goto('/login')
  await page.getByRole('button', { name: 'Continue with Google' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible()
  await page.waitForURL('**/prompts')
  await page.goto('/settings/profile')
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email)
  expect(popups).toEqual([])
})
