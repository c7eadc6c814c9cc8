import { test as base, expect, type Page } from '@playwright/test'

export const PASSWORD = 'correct horse battery staple'
export const ADMIN = { email: 'admin@e2e.test', password: PASSWORD }

/** The route table's pages for global admins only (others are sent home). */
export const ADMIN_ONLY_PATHS = [
  '/admin',
  '/debug-auth',
  '/auth-test',
  '/auth-debug-test',
  '/oauth-test',
  '/diagnosis',
  '/quick-diagnosis',
  '/build-status',
  '/email-debug',
  '/supabase-config',
] as const

export function signUpBody(email: string, password = PASSWORD) {
  return { email, password, confirmPassword: password, acceptTerms: true }
}

/**
 * The app's origin. The API accepts state-changing requests only with an Origin header naming it
 * (as a browser sends), so every API call a test makes itself carries it (`apiOptions`).
 */
export function appOrigin(): string {
  return test.info().project.use.baseURL as string
}

/**
 * Options for an API call a test makes itself: the Origin header, and one retry of a request that
 * met its kept-alive connection just as the server closed it for being idle (Node closes them after
 * 5 s; the request then fails with ECONNRESET before the server has seen it). Browsers retry such a
 * request by themselves; Playwright's request context does only when asked.
 */
export function apiOptions(headers: Record<string, string> = {}) {
  return { headers: { Origin: appOrigin(), ...headers }, maxRetries: 1 }
}

let counter = 0
export function uniqueEmail(prefix = 'user'): string {
  counter += 1
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}@e2e.test`
}

/**
 * Creates an account through the API; the page's browser context is then signed in as it. Sent in
 * the browser's language, as the app does: the new profile (whose language the app then uses)
 * starts in it.
 */
export async function signUpViaApi(page: Page, email = uniqueEmail()): Promise<string> {
  const language = await page.evaluate(() => navigator.language)
  const res = await page.request.post('/api/v1/auth/sign-up', {
    data: signUpBody(email),
    ...apiOptions({ 'Accept-Language': language }),
  })
  expect(res.status(), await res.text()).toBe(201)
  return email
}

export async function signInViaApi(page: Page, email: string, password = PASSWORD) {
  const res = await page.request.post('/api/v1/auth/sign-in', {
    data: { email, password },
    ...apiOptions(),
  })
  expect(res.status(), await res.text()).toBe(200)
}

/**
 * Takes the app, already loaded, to `path` the way its router follows Back and Forward (a history
 * entry and its popstate event): no page load, so the browser does not compile the app's code again
 * nor the axe spec put axe into the page again (the two cost about 0.7 s a screen, idle, 2026-11-29).
 * Returns once a first-level heading that the last screen did not have is shown: a screen that
 * keeps its heading element (the same page with other search parameters) never arrives and the
 * test fails, it is not checked as it was. The app reuses what it read in the last 30 s, so a
 * screen whose data a test changed through the API since is loaded afresh instead (`page.goto`).
 */
export async function moveWithinApp(page: Page, path: string) {
  await page.evaluate((to) => {
    for (const heading of document.querySelectorAll('h1, [role="heading"][aria-level="1"]'))
      heading.setAttribute('data-e2e-left', '')
    // As the router's own push writes it: its index, a key and no state of the app's.
    const idx = ((history.state as { idx?: number } | null)?.idx ?? 0) + 1
    history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', to)
    dispatchEvent(new PopStateEvent('popstate', { state: history.state }))
  }, path)
  await expect(
    page.getByRole('heading', { level: 1 }).and(page.locator(':not([data-e2e-left])')).first(),
  ).toBeVisible()
}

/** The browser's own log line for an API answer of 4xx: expected whenever a test provokes a refusal. */
const clientErrorResponse = /^Failed to load resource: the server responded with a status of 4\d\d/

/**
 * Every test fails on a console error it did not expect (a 5xx, a React warning, an exception).
 * Tests that provoke one on purpose match it with `expectedConsoleError`.
 */
/**
 * What the browser asks of the API paths named in `paths` (name → path), in order: `ask <name>` as a
 * request leaves, `got <name>` as its answer arrives. Read after the page has settled.
 */
export function watchReads(page: Page, paths: Record<string, string>): string[] {
  const events: string[] = []
  const nameOf = (url: string) => {
    const path = new URL(url).pathname
    return Object.keys(paths).find((name) => paths[name] === path)
  }
  page.on('request', (request) => {
    const name = nameOf(request.url())
    if (name) events.push(`ask ${name}`)
  })
  page.on('response', (response) => {
    const name = nameOf(response.url())
    if (name) events.push(`got ${name}`)
  })
  return events
}

export const test = base.extend<{ expectedConsoleError: RegExp | undefined; consoleGuard: undefined }>({
  expectedConsoleError: [undefined, { option: true }],
  consoleGuard: [
    async ({ page, expectedConsoleError }, use) => {
      const errors: string[] = []
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text())
      })
      page.on('pageerror', (error) => errors.push(error.message))
      await use(undefined)
      const unexpected = errors.filter(
        (text) => !clientErrorResponse.test(text) && !expectedConsoleError?.test(text),
      )
      expect(unexpected, 'unexpected console errors').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }
