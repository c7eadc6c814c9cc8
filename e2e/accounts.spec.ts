import { codeOf, linkOf, mailCount, waitForMail } from './mailbox.ts'
import { ADMIN, expect, PASSWORD, signInViaApi, signUpViaApi, test, uniqueEmail } from './support.ts'

test.describe('emailed-code sign-in', () => {
  test('a new address gets a code by mail and is signed in with it', async ({ page }) => {
    const email = uniqueEmail('code')
    await page.goto('/login')
    await expect(page.getByRole('link', { name: 'Sign in with password' })).toHaveAttribute(
      'href',
      '/login-password',
    )
    await expect(page.getByRole('link', { name: 'Email setup (admins)' })).toHaveAttribute(
      'href',
      '/supabase-config',
    )
    await page.getByRole('button', { name: 'Send code' }).click()
    await expect(page.getByText('Email is required')).toBeVisible()

    const before = await mailCount(email)
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send code' }).click()
    await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible()
    const mail = await waitForMail(email, { after: before })
    expect(mail.subject).toBe('Your Promptfolio sign-in code')
    const code = codeOf(mail)

    const box = page.getByLabel('Code')
    const signIn = page.getByRole('button', { name: 'Sign in', exact: true })
    await box.pressSequentially(`${code.slice(0, 3)}ab-`)
    await expect(box).toHaveValue(code.slice(0, 3))
    await expect(signIn).toBeDisabled()
    await box.pressSequentially(`${code.slice(3)}9`)
    await expect(box).toHaveValue(code)
    await signIn.click()
    await page.waitForURL('**/prompts')
  })

  test('a wrong code is refused; "Use different email" goes back and clears the code', async ({ page }) => {
    const email = uniqueEmail('code')
    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send code' }).click()
    const code = codeOf(await waitForMail(email))
    await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByText('Invalid verification code. Please try again.')).toBeVisible()

    await page.getByRole('button', { name: 'Use different email' }).click()
    await expect(page.getByRole('button', { name: 'Send code' })).toBeVisible()
    await page.getByLabel('Email').fill(uniqueEmail('other'))
    await page.getByRole('button', { name: 'Send code' }).click()
    await expect(page.getByLabel('Code')).toHaveValue('')
  })

  test('resending within the minute is refused by the server and the wait counts down', async ({ page }) => {
    const email = uniqueEmail('resend')
    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    // Wait for the first answer itself: the mail can arrive before it, and the resend's answer
    // must not be confused with it.
    const sent = page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/code/send'))
    await page.getByRole('button', { name: 'Send code' }).click()
    expect((await sent).status()).toBe(200)
    await waitForMail(email)
    const [response] = await Promise.all([
      page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/code/send')),
      page.getByRole('button', { name: 'Resend code' }).click(),
    ])
    expect(response.status()).toBe(429)
    const wait = Number(response.headers()['retry-after'])
    expect(wait).toBeGreaterThan(1)
    const resend = page.getByRole('button', { name: /^Resend code \(\d+ s\)$/ })
    await expect(resend).toBeDisabled()
    const seconds = async () => Number((await resend.textContent())?.match(/\d+/)?.[0])
    const first = await seconds()
    expect(first).toBeLessThanOrEqual(wait)
    await expect.poll(seconds, { timeout: 5000 }).toBeLessThan(first)
    await expect(
      page.getByText(/Rate limit reached\. Please wait \d+ seconds before trying again\./),
    ).toBeVisible()
  })

  test.describe('in German', () => {
    test.use({ locale: 'de-DE' })

    test('shows the spec German messages', async ({ page }) => {
      const email = uniqueEmail('code-de')
      await page.goto('/login')
      await page.getByRole('button', { name: 'Code senden' }).click()
      await expect(page.getByText('E-Mail ist erforderlich')).toBeVisible()
      await page.getByLabel('E-Mail').fill(email)
      await page.getByRole('button', { name: 'Code senden' }).click()
      const mail = await waitForMail(email)
      expect(mail.subject).toBe('Dein Anmeldecode für Promptfolio')
      const code = codeOf(mail)
      await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000')
      await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
      await expect(page.getByText('Ungültiger Code. Bitte überprüfen Sie Ihre Eingabe')).toBeVisible()
    })
  })
})

test.describe('password reset', () => {
  test('by emailed link: verified, new password set, then the link fails the second time', async ({
    page,
  }) => {
    const email = await signUpViaApi(page)
    await page.context().clearCookies()
    await page.goto('/login-password')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    // The sign-in page (which has an Email field too) stays until the next page's code has loaded.
    await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible()
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByRole('heading', { name: 'Email sent' })).toBeVisible()
    const link = linkOf(await waitForMail(email), '/auth/confirm')

    await page.goto(link)
    await expect(page.getByRole('heading', { name: 'Reset Link Verified' })).toBeVisible()
    await page.waitForURL('**/reset-password')
    await expect(page.getByText(`Choose a new password for ${email}.`)).toBeVisible()
    await page.getByLabel('New password', { exact: true }).fill('short')
    await page.getByLabel('Confirm new password').fill('different')
    await page.getByRole('button', { name: 'Update password' }).click()
    await expect(page.getByText('Password must be at least 12 characters')).toBeVisible()
    await expect(page.getByText('Passwords do not match')).toBeVisible()
    const newPassword = 'my fresh passphrase 2026'
    await page.getByLabel('New password', { exact: true }).fill(newPassword)
    await page.getByLabel('Confirm new password').fill(newPassword)
    await page.getByRole('button', { name: 'Update password' }).click()
    await expect(page.getByRole('heading', { name: 'Password updated' })).toBeVisible()
    await page.waitForURL('**/login', { timeout: 8000 })

    await page.goto(link)
    await expect(page.getByRole('heading', { name: 'Reset Link Invalid' })).toBeVisible()
    await expect(
      page.getByText('This password reset link is invalid or has expired. Please request a new one.'),
    ).toBeVisible()
    await page.waitForURL('**/forgot-password', { timeout: 8000 })

    await page.goto('/login-password')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(newPassword)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL('**/prompts')
  })

  test('/reset-password without a reset session says so', async ({ page }) => {
    await page.goto('/reset-password')
    await expect(page.getByRole('heading', { name: 'Invalid or expired reset session' })).toBeVisible()
  })

  test('from inside a frame: the link opens in a new tab, which hands over to the framed page', async ({
    page,
  }) => {
    const email = await signUpViaApi(page)
    await page.context().clearCookies()
    await page.goto('/terms')
    await page.evaluate(() => {
      const frame = document.createElement('iframe')
      frame.src = '/forgot-password'
      frame.name = 'embedded'
      frame.style.cssText = 'width:600px;height:700px'
      document.body.append(frame)
    })
    const frame = page.frameLocator('iframe[name="embedded"]')
    await frame.getByLabel('Email').fill(email)
    await frame.getByRole('button', { name: 'Send reset link' }).click()
    await expect(frame.getByText('The link will open in a new tab')).toBeVisible()
    const link = linkOf(await waitForMail(email), '/auth/confirm')
    expect(new URL(link).searchParams.get('new_tab')).toBe('true')

    const framePage = page.frame({ name: 'embedded' })!
    const [tab] = await Promise.all([
      page.waitForEvent('popup'),
      framePage.evaluate((url) => window.open(url, '_blank'), link),
    ])
    // Listened for from the start: the tab may close (2 s after verifying) while the frame is checked.
    const tabClosed = tab.waitForEvent('close', { timeout: 15_000 })
    await expect(tab.getByRole('heading', { name: 'Reset Link Verified' })).toBeVisible()
    await expect(frame.getByText(`Choose a new password for ${email}.`)).toBeVisible()
    await tabClosed
  })

  test('direct reset checks the current password on the server', async ({ page }) => {
    const email = await signUpViaApi(page)
    await page.context().clearCookies()
    await page.goto('/direct-reset-password')
    await expect(page.getByText(/Temporary solution/)).toBeVisible()
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByText('Current password is required')).toBeVisible()
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Current password').fill(PASSWORD)
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD)
    await page.getByLabel('Confirm new password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByText('New password must be different from current password')).toBeVisible()

    await page.getByLabel('Current password').fill('not the right one!')
    await page.getByLabel('New password', { exact: true }).fill('another good passphrase')
    await page.getByLabel('Confirm new password').fill('another good passphrase')
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByText('Email or current password is incorrect')).toBeVisible()

    await page.getByLabel('Current password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByRole('heading', { name: 'Password updated' })).toBeVisible()
    await page.waitForURL('**/login-password', { timeout: 8000 })
  })
})

test.describe('Google sign-in', () => {
  test('runs in a popup against the local OpenID provider and signs the user in', async ({ page }) => {
    const email = uniqueEmail('google')
    await page.goto('/login')
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Continue with Google' }).click(),
    ])
    await popup.getByLabel('Email').fill(email)
    await popup.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL('**/prompts')
    await page.goto('/settings/profile')
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email)
  })

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true })

    test('runs in the same window and comes back through /auth/callback', async ({ page }) => {
      const email = uniqueEmail('google-phone')
      await page.goto('/login')
      await page.getByRole('button', { name: 'Continue with Google' }).click()
      // No popup: this very page goes to the provider.
      await page.waitForURL((url) => url.pathname !== '/login')
      await page.getByLabel('Email').fill(email)
      await page.getByRole('button', { name: 'Continue', exact: true }).click()
      await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible()
      await page.waitForURL('**/prompts')
      await page.goto('/settings/profile')
      await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email)
    })
  })

  test('a closed popup says the sign-in was cancelled', async ({ page }) => {
    await page.goto('/login')
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Continue with Google' }).click(),
    ])
    await popup.getByLabel('Email').waitFor()
    await popup.close()
    await expect(page.getByText('Authentication was cancelled or failed')).toBeVisible()
  })

  test('a provider error in the callback URL is shown, then back to /login', async ({ page }) => {
    await page.goto('/auth/callback?error=access_denied')
    await expect(page.getByText('Authentication failed: access_denied')).toBeVisible()
    await page.waitForURL('**/login', { timeout: 8000 })
  })
})

/** The outcomes of /auth/callback and /auth/confirm that the flows above do not reach. */
test.describe('auth callback outcomes', () => {
  test('no parameters: signed out goes to /login, signed in to /prompts', async ({ page }) => {
    await page.goto('/auth/callback')
    await expect(page.getByRole('heading', { name: 'Authentication Incomplete' })).toBeVisible()
    await page.waitForURL('**/login', { timeout: 8000 })

    await signUpViaApi(page)
    await page.goto('/auth/callback')
    await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible()
    await page.waitForURL('**/prompts', { timeout: 8000 })
  })

  test('a code without a session is "Authentication Incomplete", then /login', async ({ page }) => {
    await page.goto('/auth/callback?code=abc')
    await expect(page.getByRole('heading', { name: 'Authentication Incomplete' })).toBeVisible()
    await expect(page.getByText('Please try signing in again.')).toBeVisible()
    await page.waitForURL('**/login', { timeout: 8000 })
  })

  test.describe('when the server fails', () => {
    // The refusals below are 503s the browser logs.
    test.use({ expectedConsoleError: /status of 503/ })
    const unavailable = { status: 503, json: { error: { code: 'transient', message: 'Try later' } } }

    test('a code whose session check fails is "Authentication Error", then /login', async ({ page }) => {
      await page.route('**/api/v1/session', (route) => route.fulfill(unavailable))
      await page.goto('/auth/callback?code=abc')
      await expect(page.getByRole('heading', { name: 'Authentication Error' })).toBeVisible()
      await expect(page.getByText('Try later')).toBeVisible()
      await page.waitForURL('**/login', { timeout: 10_000 })
    })

    test('a reset link whose session cannot be set up is "Reset Session Error"', async ({ page }) => {
      await page.route('**/api/v1/auth/recovery', (route) => route.fulfill(unavailable))
      await page.goto('/auth/confirm?token_hash=abc&type=recovery&next=/reset-password')
      await expect(page.getByRole('heading', { name: 'Reset Session Error' })).toBeVisible()
      await expect(
        page.getByText('Unable to establish reset session. Please request a new reset link.'),
      ).toBeVisible()
      await page.waitForURL('**/forgot-password', { timeout: 8000 })
    })
  })
})

test.describe('profile settings', () => {
  // The refused save below is a 503 the browser logs.
  test.use({ expectedConsoleError: /status of 503/ })

  test('saves only what changed; theme and language apply at once; a failed save reverts', async ({
    page,
  }) => {
    const email = await signUpViaApi(page)
    await page.goto('/settings/profile')
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email)
    const save = page.getByRole('button', { name: 'Save' })
    await expect(save).toBeDisabled()

    await page.getByLabel('Display name').fill('x'.repeat(81))
    await save.click()
    await expect(page.getByText('Display name must be ≤ 80 characters')).toBeVisible()

    await page.getByLabel('Display name').fill('Ada Lovelace')
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark')
    await expect(page.locator('html')).toHaveClass(/dark/)
    await page.getByRole('switch', { name: 'Mentions · By email' }).click()
    const [request] = await Promise.all([page.waitForRequest((r) => r.method() === 'PATCH'), save.click()])
    expect(request.postDataJSON()).toEqual({
      displayName: 'Ada Lovelace',
      theme: 'dark',
      notifications: { mentions: { in_app: true, email: false }, invites: { in_app: true, email: true } },
    })
    await expect(page.getByText('Profile saved', { exact: true })).toBeVisible()
    await expect(save).toBeDisabled()
    // The display name is the account's name at once: the avatar menu greets with it.
    await page.getByRole('button', { name: 'Account menu' }).click()
    await expect(page.getByRole('menu').getByText('Ada Lovelace', { exact: true })).toBeVisible()
    await page.keyboard.press('Escape')

    // A refused save puts everything back and says so.
    await page.route('**/api/v1/profile', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 503, json: { error: { code: 'transient', message: 'Try later' } } })
        : route.continue(),
    )
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('light')
    await save.click()
    await expect(page.getByText('Failed to save', { exact: true })).toBeVisible()
    await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('dark')
    await expect(page.locator('html')).toHaveClass(/dark/)
    await page.unroute('**/api/v1/profile')

    await page.getByRole('combobox', { name: 'Language' }).selectOption('de')
    await save.click()
    await expect(page.getByRole('heading', { name: 'Profileinstellungen' })).toBeVisible()
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Profileinstellungen' })).toBeVisible()
    await expect(page.getByLabel('Anzeigename')).toHaveValue('Ada Lovelace')
  })

  test('"Sign out of all other sessions" ends the other browser\'s session', async ({ page, browser }) => {
    const email = await signUpViaApi(page)
    const other = await browser.newContext()
    const otherPage = await other.newPage()
    await signInViaApi(otherPage, email)
    await page.goto('/settings/profile')
    await page.getByRole('button', { name: 'Sign out of all other sessions' }).click()
    await expect(page.getByText('All other sessions were signed out', { exact: true })).toBeVisible()
    await otherPage.goto('/prompts')
    await otherPage.waitForURL('**/login')
    await other.close()
  })
})

test.describe('admin tools', () => {
  test('email debug lists sent mail and sends a test mail', async ({ page }) => {
    await signInViaApi(page, ADMIN.email)
    await page.goto('/email-debug')
    await expect(page.getByText(/Mail is sent by SMTP from/)).toBeVisible()
    const to = uniqueEmail('debug')
    await page.getByLabel('Recipient', { exact: true }).fill(to)
    await page.getByRole('button', { name: 'Send test' }).click()
    await expect(page.getByText(`Test mail queued for ${to}`, { exact: true })).toBeVisible()
    expect((await waitForMail(to)).subject).toBe('Promptfolio test email')
    await page.getByLabel('Filter by recipient').fill(to)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect(page.getByText('Promptfolio test email')).toBeVisible()
    await page.getByRole('button', { name: 'View' }).click()
    await expect(page.getByRole('dialog').getByText(/This is a test email/)).toBeVisible()
  })

  test('the admin password reset sets a user password; nothing is prefilled', async ({ page }) => {
    const email = uniqueEmail('victim')
    await signUpViaApi(page, email)
    await page.context().clearCookies()
    await signInViaApi(page, ADMIN.email)
    await page.goto('/temp-reset')
    await expect(page.getByLabel('User email')).toHaveValue('')
    await expect(page.getByLabel('New password')).toHaveValue('')
    await page.getByLabel('User email').fill(email)
    await page.getByLabel('New password').fill('set by the admin 123')
    await page.getByRole('button', { name: 'Set password' }).click()
    await expect(page.getByText(`The password of ${email} was set`)).toBeVisible()
  })
})

test.describe('admin debug pages', () => {
  test('show live checks: session, providers, discovery, SMTP, raw answers', async ({ page }) => {
    await signInViaApi(page, ADMIN.email)
    await page.goto('/quick-diagnosis')
    await expect(page.getByRole('heading', { name: 'Quick Diagnosis', level: 1 })).toBeVisible()
    const rows = page.locator('dl > div')
    await expect(rows.filter({ hasText: 'API and database' })).toContainText('OK')
    await expect(rows.filter({ hasText: 'Google sign-in' })).toContainText('OK')
    await expect(rows.filter({ hasText: 'Outgoing mail (SMTP)' })).toContainText('OK')

    await page.goto('/diagnosis')
    await expect(page.getByText(/\/api\/auth\/callback\/google$/)).toBeVisible()

    await page.goto('/debug-auth')
    await expect(page.getByText(ADMIN.email)).toBeVisible()
    await expect(page.getByText('This browser')).toBeVisible()

    await page.goto('/auth-test')
    await expect(page.getByText('Session cookie recognised')).toBeVisible()
    await expect(page.getByText(ADMIN.email)).toBeVisible()
    await expect(page.getByLabel('Failed')).toHaveCount(0)

    await page.goto('/auth-debug-test')
    await expect(page.getByText('GET /api/v1/session', { exact: true })).toBeVisible()
    await expect(page.getByText('GET /api/v1/sessions', { exact: true })).toBeVisible()
    await expect(page.getByText(`"email": "${ADMIN.email}"`).first()).toBeVisible()
  })

  test('are closed to users who are not global admins', async ({ page }) => {
    await signUpViaApi(page)
    for (const path of ['/debug-auth', '/quick-diagnosis', '/email-debug', '/oauth-test']) {
      await page.goto(path)
      await page.waitForURL((url) => url.pathname === '/')
    }
  })
})
