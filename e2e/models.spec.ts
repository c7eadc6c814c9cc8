import type { Page } from '@playwright/test'
import { expectNoSeriousViolations } from './axe.ts'
import { fakeModels } from './models-support.ts'
import { shot } from './shots.ts'
import { expect, signUpViaApi, test } from './support.ts'

// axe-core is put into the page as a script, which the app's CSP refuses without this.
test.use({ bypassCSP: true, reducedMotion: 'reduce' })
// Each test walks two screens with axe checks on each.
test.slow()

async function settled(page: Page) {
  await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0)
}

test.describe('Settings → Models', () => {
  // Fetching models with a wrong key: the browser logs the server's 502 (the provider refused it).
  test.use({ expectedConsoleError: /status of 502/ })

  test('add a provider in Settings → Models: errors next to the fields, the key only as its hint, fetched models', async ({
    page,
  }) => {
    await signUpViaApi(page)
    await page.goto('/settings')
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Models' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Models' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'No model providers yet' })).toBeVisible()
    await settled(page)
    await expectNoSeriousViolations(page, '/settings/models (empty)')

    await page.getByRole('button', { name: 'Add provider' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add a model provider' })
    await dialog.getByRole('button', { name: 'Add provider' }).click()
    await expect(dialog.getByText('Name is required')).toBeVisible()
    await expect(dialog.getByText('API key is required')).toBeVisible()
    await dialog.getByLabel('Name').fill('Local fake')
    await dialog.getByLabel('Base URL').fill(fakeModels.openAiBaseUrl)
    await dialog.getByLabel('API key').fill(fakeModels.apiKey)
    await dialog.getByLabel('Models').fill('fake-large, fake-small')
    await dialog.getByLabel('Default model').fill('fake-tiny')
    await dialog.getByRole('button', { name: 'Add provider' }).click()
    await expect(dialog.getByText('The default model must be one of the listed models')).toBeVisible()
    await dialog.getByLabel('Models').fill('')
    await dialog.getByLabel('Default model').fill('')
    await dialog.getByRole('button', { name: 'Add provider' }).click()

    // Saved: the dialog goes on with the saved provider; the key shows as its hint only.
    const edit = page.getByRole('dialog', { name: 'Edit model provider' })
    await expect(edit).toContainText('…cdef')
    await expect(edit.getByLabel('API key')).toHaveValue('')
    await edit.getByRole('button', { name: 'Fetch models' }).click()
    await expect(edit.getByLabel('Models')).toHaveValue('fake-large\nfake-small')
    await expect(edit.getByLabel('Default model')).toHaveValue('fake-large')
    await settled(page)
    await expectNoSeriousViolations(page, 'provider dialog after adding')
    await shot(page, 'models-provider-dialog-en-light')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(edit).toHaveCount(0)

    const card = page.getByRole('list', { name: 'Model providers' }).getByRole('listitem').first()
    await expect(card).toContainText('Local fake')
    await expect(card).toContainText('OpenAI-compatible')
    await expect(card).toContainText('…cdef')
    await expect(card.getByRole('list', { name: 'Models of Local fake' })).toContainText('fake-small')
    expect(await page.content()).not.toContain(fakeModels.apiKey)
    await settled(page)
    await expectNoSeriousViolations(page, '/settings/models (one provider)')
    await shot(page, 'models-settings-en-light')

    // A wrong key: the server says so next to the list when fetching models.
    await card.getByRole('button', { name: 'Edit: Local fake' }).click()
    await edit.getByLabel('API key').fill('sk-wrong-key')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(edit).toHaveCount(0)
    await expect(card).toContainText('…-key')
    await card.getByRole('button', { name: 'Edit: Local fake' }).click()
    await edit.getByRole('button', { name: 'Fetch models' }).click()
    await expect(edit.getByText(/refused the API key/)).toBeVisible()
    await page.keyboard.press('Escape')

    await card.getByRole('button', { name: 'Delete: Local fake' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByRole('heading', { name: 'No model providers yet' })).toBeVisible()
  })
})
