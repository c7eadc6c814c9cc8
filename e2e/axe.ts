import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'
import type { AxeResults, ImpactValue, Result } from 'axe-core'
import { expect, test } from './support.ts'

const axeScript = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** What fails a screen: the impacts a user of assistive technology is blocked or badly hindered by. */
const failing: ImpactValue[] = ['serious', 'critical']

function summary(violation: Result): string {
  const nodes = violation.nodes.map(
    (node) => `    ${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1).join(' ')}`,
  )
  return `${violation.id} (${violation.impact}): ${violation.help}\n${nodes.join('\n')}`
}

/**
 * Runs axe-core on what the page shows now (its default rules: WCAG 2.x A and AA plus best
 * practices) and fails on serious or critical violations, naming each rule, its help and the
 * elements; lesser findings are added to the test's annotations. axe.min.js is put into the page
 * itself (@axe-core/playwright needs Node 22); the app's CSP allows no inline script, so the spec's
 * context runs with `bypassCSP`.
 */
export async function expectNoSeriousViolations(page: Page, screen: string) {
  // Colours are checked as the user finally sees them: halfway through a dialog's fade-in its
  // text blends with the overlay, and axe reported too little contrast (seen once in a full run).
  // Endless animations (spinners, skeletons) never finish and are not waited for.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity,
      ),
  )
  // A page that was not reloaded still has axe from the last check.
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeScript })
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (options: object) => Promise<AxeResults> } }).axe.run({
      resultTypes: ['violations'],
    }),
  )
  const serious = results.violations.filter((violation) => failing.includes(violation.impact ?? 'minor'))
  for (const violation of results.violations.filter((candidate) => !serious.includes(candidate))) {
    test
      .info()
      .annotations.push({ type: `axe ${violation.impact}`, description: `${screen}: ${summary(violation)}` })
  }
  // Soft: one run reports every screen with a problem, not only the first.
  expect.soft(serious.map(summary), `accessibility violations on ${screen}`).toEqual([])
}

/**
 * Checks what the page shows now in light and in dark, in the same state, without reloading.
 * While the profile's theme is 'system' (the default) the app follows the browser's colour scheme
 * as it changes (src/web/features/shell/theme.ts), so emulating the other scheme re-themes the
 * screen as it is, an open menu or dialog included: a spec need not sign up, seed and navigate a
 * second time for the second theme. The scheme the page is in comes first and the page is left in
 * the other: a switch restyles the whole page (about 0.3 s of the browser's time on a plain form,
 * idle, 2026-11-29), and a spec going from screen to screen then switches once a screen, not twice.
 */
export async function expectNoSeriousViolationsInBothThemes(page: Page, screen: string) {
  const dark = await page.evaluate(() => window.matchMedia('(prefers-color-scheme: dark)').matches)
  for (const colorScheme of dark ? (['dark', 'light'] as const) : (['light', 'dark'] as const)) {
    await page.emulateMedia({ colorScheme })
    // A media query's change event is dispatched in the page's next rendering step, before its
    // animation frame callbacks: once a frame has run, the app has heard of the new scheme.
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())))
    try {
      await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/)
    } catch (error) {
      // What the page believed then tells the app's theme code from the emulation (it showed that
      // a render had swallowed Chromium's change event: see useTheme in theme.ts).
      const seen = await page.evaluate(() => ({
        prefersDark: window.matchMedia('(prefers-color-scheme: dark)').matches,
        savedTheme: localStorage.getItem('promptfolio.theme'),
        htmlClass: document.documentElement.className,
        url: location.pathname,
      }))
      throw new Error(`${(error as Error).message}\nThe page at that moment: ${JSON.stringify(seen)}`)
    }
    await expectNoSeriousViolations(page, `${screen} (${colorScheme})`)
  }
}
