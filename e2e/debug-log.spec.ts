import { ADMIN, expect, signInViaApi, test, uniqueEmail } from './support.ts'

test.describe('the debug log', () => {
  // The uncaught error below is on purpose; the clipboard is read back.
  test.use({
    permissions: ['clipboard-read', 'clipboard-write'],
    expectedConsoleError: /Diagnostics check token=/,
  })

  test('shows what went wrong in this tab, without secrets, and copies it for a support request', async ({
    page,
  }) => {
    await page.goto('/login-password')
    await page.getByLabel('Email').fill(uniqueEmail('debug-log'))
    await page.getByLabel('Password').fill('not my password at all')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByText('Invalid email or password.')).toBeVisible()
    // Within the app, as a link would go: the log lives in this tab's memory, a reload empties it.
    await page.evaluate(() => {
      history.pushState(null, '', '/test')
      window.dispatchEvent(new PopStateEvent('popstate'))
    })
    await expect(page.getByRole('heading', { name: 'Diagnostics', level: 1 })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Debug log' })).toBeVisible()
    const entries = page.getByTestId('debug-log-entry')
    await expect(entries.filter({ hasText: /POST \/api\/\S+ → 401/ })).toHaveCount(1)

    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error('Diagnostics check token=abc123secret failed')
      }),
    )
    // Newest first.
    await expect(entries.first()).toContainText('Uncaught Error: Diagnostics check token=[redacted] failed')
    await expect(entries.first()).toContainText('Error')

    await page.getByRole('button', { name: 'Copy log' }).click()
    await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible()
    const text = await page.evaluate(() => navigator.clipboard.readText())
    expect(text).toMatch(/^Promptfolio debug log, \d{4}-\d\d-\d\dT/)
    expect(text).toMatch(/ WARN POST \/api\/\S+ → 401 /)
    expect(text).toContain(' ERROR Uncaught Error: Diagnostics check token=[redacted] failed')
    expect(text).not.toContain('abc123secret')
    expect(text).not.toContain('not my password')

    await page.getByRole('button', { name: 'Clear' }).click()
    await expect(entries).toHaveCount(0)
    await expect(page.getByText('Nothing logged in this tab yet.')).toBeVisible()
  })

  test('is on the admins’ diagnostics pages too', async ({ page }) => {
    await signInViaApi(page, ADMIN.email)
    for (const path of ['/diagnosis', '/quick-diagnosis']) {
      await page.goto(path)
      // A browser's first signed-in screen compiles the shell too: slow on a loaded machine.
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 })
      await expect(page.getByRole('heading', { name: 'Debug log' })).toBeVisible()
      await expect(page.getByRole('button', { name: 'Copy log' })).toBeVisible()
    }
  })
})
