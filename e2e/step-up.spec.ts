import type { Page } from '@playwright/test'
import { expectNoSeriousViolationsInBothThemes } from './axe.ts'
import { codeOf, mailCount, waitForMail } from './mailbox.ts'
import { apiOptions, expect, PASSWORD, signUpViaApi, test } from './support.ts'

// axe-core is put into the page as a script, which the app's CSP refuses without this.
test.use({ bypassCSP: true })

/**
 * The server's answer to a sign-in older than the window (10 minutes), given once to the next
 * request for `path`: a test cannot wait ten minutes, and the e2e server's database is out of its
 * reach. Everything after it (the re-authentication, the retried action) is the real server's.
 */
async function refuseOnceForOldSignIn(page: Page, method: string, path: string) {
  let refused = false
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (refused || route.request().method() !== method) return route.fallback()
      refused = true
      await route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            code: 'forbidden',
            message:
              'For your security, please confirm it is you: sign in again (password or emailed code) to continue.',
            reason: 'reauthentication_required',
          },
        }),
      })
    },
  )
  return () => refused
}

test.describe('light and dark themes', () => {
  test.use({ reducedMotion: 'reduce' })

  test('creating an API key after an old sign-in asks for the password, then creates it', async ({
    page,
  }) => {
    // Three password hashes (sign-up, a wrong and the right password) and an axe run per theme.
    test.slow()
    await signUpViaApi(page)
    const wasRefused = await refuseOnceForOldSignIn(page, 'POST', '/api/v1/api-keys')
    await page.goto('/settings/api')
    await page.getByRole('button', { name: 'Create key' }).first().click()
    const create = page.getByRole('dialog', { name: 'Create an API key' })
    await create.getByLabel('Name').fill('After step-up')
    await create.getByRole('button', { name: 'Create key' }).click()

    const stepUp = page.getByRole('dialog', { name: 'Confirm it’s you' })
    await expect(stepUp).toBeVisible()
    expect(wasRefused()).toBe(true)
    const password = stepUp.getByLabel('Password')
    await expect(password).toBeFocused()
    await expectNoSeriousViolationsInBothThemes(page, 're-authentication dialog')

    await stepUp.getByRole('button', { name: 'Confirm' }).click()
    await expect(stepUp.getByText('Enter your password')).toBeVisible()
    await password.fill('not my password at all')
    await password.press('Enter')
    await expect(stepUp.getByText('The password is not correct.')).toBeVisible()
    await password.fill(PASSWORD)
    await password.press('Enter')

    await expect(stepUp).toBeHidden()
    await expect(create.getByText('Copy the secret key now')).toBeVisible()
    const secretKey = await create.getByLabel('Secret key', { exact: true }).inputValue()
    expect(secretKey).toMatch(/^sk-pf-/)
    await create.getByRole('button', { name: 'Done' }).click()
    await expect(
      page.getByRole('list', { name: 'Keys' }).getByRole('listitem', { name: 'After step-up' }),
    ).toBeVisible()
  })
})

test('an emailed code confirms it too; cancelling leaves the action refused', async ({ page }) => {
  test.slow()
  const email = await signUpViaApi(page)
  const hook = await page.request.post('/api/v1/webhooks', {
    data: { url: 'http://127.0.0.1:9/step-up', events: ['prompt.created'] },
    ...apiOptions(),
  })
  expect(hook.status(), await hook.text()).toBe(201)
  const { id } = (await hook.json()) as { id: string }
  const secretPath = `/api/v1/webhooks/${id}/secret`
  await refuseOnceForOldSignIn(page, 'GET', secretPath)
  await page.goto('/settings/webhooks')
  const reveal = page.getByRole('button', { name: 'Reveal secret: http://127.0.0.1:9/step-up' })

  // Cancelled: nothing is shown but the server's reason.
  await reveal.click()
  const stepUp = page.getByRole('dialog', { name: 'Confirm it’s you' })
  await stepUp.getByRole('button', { name: 'Cancel' }).click()
  await expect(stepUp).toBeHidden()
  await expect(page.getByText('please confirm it is you').first()).toBeVisible()

  await refuseOnceForOldSignIn(page, 'GET', secretPath)
  await reveal.click()
  await stepUp.getByRole('button', { name: 'Email me a code instead' }).click()
  const before = await mailCount(email)
  await stepUp.getByRole('button', { name: 'Send me a code' }).click()
  await expect(stepUp.getByText('Code sent. Check your email.')).toBeVisible()
  const code = codeOf(await waitForMail(email, { after: before }))
  await stepUp.getByLabel('Code from the email').fill(code)
  await stepUp.getByLabel('Code from the email').press('Enter')

  await expect(stepUp).toBeHidden()
  const shown = page.getByRole('dialog', { name: 'Signing secret' })
  await expect(shown.getByLabel('Signing secret', { exact: true })).toHaveValue(/^whsec_/)
})
