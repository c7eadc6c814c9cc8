import { createPromptViaApi } from './prompts-support.ts'
import { ADMIN, ADMIN_ONLY_PATHS, expect, signInViaApi, signUpViaApi, test } from './support.ts'

test('a protected page shows the loading screen, then sends a signed-out visitor to /login', async ({
  page,
}) => {
  // The session answer is held until the loading screen has been seen.
  let releaseSession = () => {}
  const sessionHeld = new Promise<void>((resolve) => {
    releaseSession = resolve
  })
  await page.route('**/api/v1/session', async (route) => {
    await sessionHeld
    await route.continue()
  })
  await page.goto('/prompts/new')
  await expect(page.getByRole('status').filter({ hasText: 'Loading Promptfolio…' })).toBeVisible()
  releaseSession()
  await page.waitForURL('**/login')
  await expect(page.getByRole('heading', { name: 'Sign in with a code' })).toBeVisible()
})

test('public auth pages send a signed-in visitor to /prompts', async ({ page }) => {
  await signUpViaApi(page)
  for (const path of [
    '/login',
    '/login-password',
    '/signup',
    '/signup-password',
    '/forgot-password',
    '/direct-reset-password',
  ]) {
    await page.goto(path)
    await page.waitForURL('**/prompts')
  }
})

test('unknown paths show the not-found page with a way home', async ({ page }) => {
  await page.goto('/this/does/not/exist')
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Return to Home' }).click()
  await page.waitForURL('**/login')
})

test('admin-only pages send other users home; the sidebar shows them to global admins only', async ({
  page,
}) => {
  await signUpViaApi(page)
  for (const path of ADMIN_ONLY_PATHS) {
    await page.goto(path)
    await page.waitForURL((url) => url.pathname === '/')
  }
  await expect(page.getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0)

  await page.context().clearCookies()
  await signInViaApi(page, ADMIN.email)
  await page.goto('/admin')
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible()
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Admin Dashboard' })).toBeVisible()
})

test('the sidebar reaches every section; Settings is the settings hub, Help says it is not implemented', async ({
  page,
}) => {
  await signUpViaApi(page)
  await page.goto('/dashboard')
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  for (const [name, path] of [
    ['Prompts', '/prompts'],
    ['Conversations', '/conversations'],
    ['Team', '/team'],
    ['Dashboard', '/dashboard'],
    ['Billing', '/billing'],
  ] as const) {
    await nav.getByRole('link', { name, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`${path}$`))
  }
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible()
  await nav.getByRole('link', { name: 'Settings' }).click()
  await expect(page).toHaveURL(/\/settings$/)
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
  await page.goto('/help')
  await expect(page.getByText('This page is not yet implemented.')).toBeVisible()
  // The settings pages themselves: e2e/settings.spec.ts, e2e/public-api.spec.ts, e2e/webhooks.spec.ts.
  await page.goto('/settings/api')
  await expect(page.getByRole('heading', { name: 'API Access', level: 1 })).toBeVisible()
  await page.goto('/settings/webhooks')
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()
})

test('legacy /signup goes to /login after 3 seconds', async ({ page }) => {
  await page.goto('/signup')
  await expect(page.getByText('This page has moved')).toBeVisible()
  await page.waitForURL('**/login', { timeout: 6000 })
})

test('/test, /terms and /privacy are public', async ({ page }) => {
  await page.goto('/test')
  await expect(page.getByText('Reachable')).toBeVisible()
  await page.goto('/terms')
  await expect(page.getByRole('heading', { name: 'Terms of Service' })).toBeVisible()
  await page.goto('/privacy')
  await expect(page.getByRole('heading', { name: 'Privacy Policy' })).toBeVisible()
})

test.describe('render failures', () => {
  test.use({ expectedConsoleError: /Intentional render failure|The above error occurred/ })

  test('show the Something went wrong fallback with Refresh Page', async ({ page }) => {
    await page.goto('/test')
    await page.getByRole('button', { name: 'Test the error screen' }).click()
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible()
    await page.getByRole('button', { name: 'Refresh Page' }).click()
    await expect(page.getByText('Reachable')).toBeVisible()
  })
})

test.describe('German', () => {
  test.use({ locale: 'de-DE' })

  test('is used when the browser prefers it, and the switch changes the language', async ({ page }) => {
    await page.goto('/login-password')
    await expect(page.getByRole('heading', { name: 'Willkommen zurück' })).toBeVisible()
    await page.getByRole('button', { name: 'Anmelden' }).click()
    await expect(page.getByText('E-Mail ist erforderlich')).toBeVisible()

    await page.getByRole('button', { name: 'Sprache' }).click()
    await page.getByRole('menuitemcheckbox', { name: 'English' }).click()
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible()
    await expect(page.getByText('Email is required')).toBeVisible()
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible()
  })

  test('server messages arrive in German too', async ({ page }) => {
    await page.goto('/login-password')
    await page.getByLabel('E-Mail').fill('niemand@e2e.test')
    await page.getByLabel('Passwort').fill('irgendein falsches Passwort')
    await page.getByRole('button', { name: 'Anmelden' }).click()
    await expect(page.getByText('Ungültige E-Mail oder Passwort')).toBeVisible()
  })
})

test('the theme follows the system and can be switched', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto('/login-password')
  await expect(page.locator('html')).toHaveClass(/dark/)
  await page.getByRole('button', { name: 'Switch theme' }).click()
  await page.getByRole('menuitemcheckbox', { name: 'Light' }).click()
  await expect(page.locator('html')).not.toHaveClass(/dark/)
  await page.reload()
  await expect(page.locator('html')).not.toHaveClass(/dark/)
})

test('a theme switch shows the new colours at once: no colour starts a transition, in view or in rows out of view', async ({
  page,
}) => {
  await signUpViaApi(page)
  // More rows than the window shows: those out of view are restyled only when the browser gets to them.
  for (let index = 0; index < 12; index += 1) {
    await createPromptViaApi(page, { title: `Theme row ${index}`, tags: ['colour', `row-${index}`] })
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto('/prompts')
  const rows = page.getByRole('list', { name: 'Prompts' }).locator('li.list-row')
  await expect(rows).toHaveCount(12)
  await expect(rows.last()).not.toBeInViewport()
  // The fades a switch would start, counted from here on; they run from the frame after the restyle.
  await page.evaluate(() => {
    const started: string[] = []
    Object.assign(window, { colourTransitions: started })
    document.addEventListener('transitionrun', (event) => started.push(event.propertyName), true)
  })
  const nextFrames = () =>
    page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  const light = await background()

  // The app follows the system's scheme while the preference is 'system' (the default).
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveClass('dark')
  expect(await background()).not.toBe(light)
  await nextFrames()
  await rows.last().scrollIntoViewIfNeeded()
  await nextFrames()
  expect(
    await page.evaluate(() => (window as unknown as { colourTransitions: string[] }).colourTransitions),
  ).toEqual([])
  // The transitions are off for the switch only: the buttons still fade on hover.
  await expect(page.getByRole('button', { name: 'Switch theme' })).toHaveCSS(
    'transition-property',
    /background-color/,
  )
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('the sidebar becomes a drawer', async ({ page }) => {
    await signUpViaApi(page)
    await page.goto('/dashboard')
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden()
    await page.getByRole('button', { name: 'Open navigation' }).click()
    const drawer = page.getByRole('dialog', { name: 'Main navigation' })
    await drawer.getByRole('link', { name: 'Conversations' }).click()
    await expect(page).toHaveURL(/\/conversations$/)
    await expect(drawer).toBeHidden()
  })
})
