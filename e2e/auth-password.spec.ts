import type { Page } from '@playwright/test'
import { expect, PASSWORD, signUpViaApi, test, uniqueEmail } from './support.ts'

test('sign up, stay signed in across a reload, sign out from the sidebar', async ({ page }) => {
  const email = uniqueEmail('signup')
  await page.goto('/signup-password')
  await expect(page.getByText('14-day free trial', { exact: true })).toBeVisible()
  await expect(page.getByText('No credit card required', { exact: true })).toBeVisible()
  // The password rule is there before any try, and read out with the field.
  await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(
    '12 to 128 characters, and not a commonly used password.',
  )

  // Client-side validation first: nothing is sent, and the first field with a problem has the focus.
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByText('Email is required')).toBeVisible()
  await expect(page.getByText('You must accept the Terms and Privacy Policy')).toBeVisible()
  await expect(page.getByLabel('Email')).toBeFocused()
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true')

  // After a submit, a field is checked again as it changes.
  await page.getByLabel('Email').fill('ada@')
  await expect(page.getByText('Please enter a valid email address')).toBeVisible()
  await page.getByLabel('Email').fill(email)
  await expect(page.getByText('Please enter a valid email address')).toBeHidden()
  await expect(page.getByLabel('Email')).not.toHaveAttribute('aria-invalid', 'true')
  await page.getByLabel('Password', { exact: true }).fill('too short')
  await page.getByLabel('Repeat password').fill('different')
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByText('Password must be at least 12 characters')).toBeVisible()
  await expect(page.getByText('Passwords do not match')).toBeVisible()
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused()

  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('Repeat password').fill(PASSWORD)
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByText('Successfully registered!')).toBeVisible()
  await page.waitForURL('**/prompts')

  await page.reload()
  await expect(page.getByRole('heading', { name: 'Prompts', level: 1 })).toBeVisible()
  await expect(page).toHaveURL(/\/prompts$/)

  await page.getByRole('button', { name: 'Signout' }).click()
  await page.waitForURL('**/login')
  await page.goto('/prompts')
  await page.waitForURL('**/login')
})

test('an already registered email gets the spec message', async ({ page }) => {
  const email = await signUpViaApi(page)
  await page.context().clearCookies()
  await page.goto('/signup-password')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('Repeat password').fill(PASSWORD)
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(
    page.getByRole('alert').filter({ hasText: 'This email address is already registered' }),
  ).toBeVisible()
})

test.describe('sign in', () => {
  test('a wrong password is refused, then the right one signs in; sign out from the avatar menu', async ({
    page,
  }) => {
    const email = await signUpViaApi(page)
    await page.context().clearCookies()

    await page.goto('/login-password')
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    )
    await expect(page.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup-password')
    await page.getByLabel('Email').fill(email.toUpperCase())
    await page.getByLabel('Password').fill('not my password at all')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByText('Invalid email or password.')).toBeVisible()

    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL('**/prompts')

    await page.getByRole('button', { name: 'Account menu' }).click()
    await expect(page.getByRole('menuitem', { name: 'Profile & Preferences' })).toBeVisible()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await page.waitForURL('**/login')
  })

  test('returns to the protected page that asked for sign-in', async ({ page }) => {
    const email = await signUpViaApi(page)
    await page.context().clearCookies()
    await page.goto('/conversations')
    await page.waitForURL('**/login')
    await page.goto('/login-password')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL('**/prompts')
  })
})

test.describe('the sign-in pages while the session check is slow', () => {
  /**
   * A signed-out visitor of `path` (with an account, `email`) whose session check is held back
   * until `release()`; `answered()` resolves with its answer.
   */
  async function openWithSlowCheck(page: Page, path: string) {
    const email = await signUpViaApi(page)
    await page.context().clearCookies()
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/api/v1/session', async (route) => {
      await held
      await route.continue()
    })
    await page.goto(path)
    await page.getByLabel('Email').fill(email)
    return { email, release, answered: () => page.waitForResponse('**/api/v1/session') }
  }

  test('keep what was typed before the check answers "signed out", and sign in', async ({ page }) => {
    const check = await openWithSlowCheck(page, '/login-password')
    await page.getByLabel('Password').fill(PASSWORD)
    const answered = check.answered()
    check.release()
    await answered
    await expect(page.getByLabel('Email')).toHaveValue(check.email)
    await expect(page.getByLabel('Password')).toHaveValue(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL('**/prompts')
  })

  test('a sign-in sent before the check answers waits for it, then signs in', async ({ page }) => {
    const check = await openWithSlowCheck(page, '/login-password')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('button', { name: 'Signing in…' })).toBeVisible()
    check.release()
    await page.waitForURL('**/prompts')
    await expect(page.getByRole('heading', { name: 'Prompts', level: 1 })).toBeVisible()
  })

  test('the forgot-password form keeps its email and sends the link', async ({ page }) => {
    const check = await openWithSlowCheck(page, '/forgot-password')
    const answered = check.answered()
    check.release()
    await answered
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByRole('heading', { name: 'Email sent' })).toBeVisible()
  })
})

test('a sign-out the server refuses leaves the user signed in and says so', async ({ page }) => {
  await signUpViaApi(page)
  await page.goto('/prompts')
  await page.route('**/api/auth/sign-out', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/json',
      body: JSON.stringify({
        error: { code: 'rate_limited', message: 'Too many attempts. Please try again later.' },
      }),
    }),
  )
  await page.getByRole('button', { name: 'Signout' }).click()
  await expect(
    page.getByText('Could not sign out. You are still signed in; please try again.', { exact: true }),
  ).toBeVisible()
  await expect(page).toHaveURL(/\/prompts$/)
  await page.unroute('**/api/auth/sign-out')
  await page.getByRole('button', { name: 'Signout' }).click()
  await page.waitForURL('**/login')
  await page.goto('/prompts')
  await page.waitForURL('**/login')
})
