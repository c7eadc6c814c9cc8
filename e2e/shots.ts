import type { Page } from '@playwright/test'
import { test } from './support.ts'

/**
 * A full-page screenshot of what the test shows now, kept with the test's output
 * (test-results/) for a person to look at; SHOTS_DIR collects them in one folder instead.
 */
export async function shot(page: Page, name: string) {
  const file = process.env.SHOTS_DIR
    ? `${process.env.SHOTS_DIR}/${test.info().project.name}-${name}.png`
    : test.info().outputPath(`${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
}
