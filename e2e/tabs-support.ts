import type { Locator, Page } from '@playwright/test'
import { expect } from './support.ts'

/**
 * Walks a tab list (automatic activation) with the keyboard the way a quick hand or a held key does:
 * the presses follow each other without waiting for the page. Each arrow moves one tab on, wrapping
 * at the ends; Home and End go to the first and last tab (the WAI-ARIA tabs pattern). After each
 * burst the focused tab is the selected one, the only one in the Tab order, and its panel shows.
 */
export async function expectTabsFollowQuickKeys(page: Page, list: Locator) {
  const tabs = list.getByRole('tab')
  const count = await tabs.count()
  expect(count, 'a tab list worth walking has three tabs or more').toBeGreaterThanOrEqual(3)
  const expectAt = async (index: number) => {
    const tab = tabs.nth(index)
    await expect(tab).toBeFocused()
    await expect(tab).toHaveAttribute('aria-selected', 'true')
    await expect(tab).toHaveAttribute('tabindex', '0')
    await expect(list.locator('[role="tab"][tabindex="0"]')).toHaveCount(1)
    await expect(
      page.locator(`[role="tabpanel"][id="${await tab.getAttribute('aria-controls')}"]`),
    ).toBeVisible()
  }
  const press = async (key: string, times: number) => {
    for (let pressed = 0; pressed < times; pressed += 1) await page.keyboard.press(key)
  }

  await tabs.first().focus()
  await expectAt(0)
  // Once round and one more: past the last tab to the first, and on.
  await press('ArrowRight', count + 1)
  await expectAt(1)
  await press('ArrowLeft', 3)
  await expectAt(count - 2)
  await press('Home', 1)
  await expectAt(0)
  await press('End', 1)
  await expectAt(count - 1)
  await press('ArrowRight', 1)
  await expectAt(0)
}
