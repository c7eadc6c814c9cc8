import type { Page } from '@playwright/test'
import { expectNoSeriousViolations } from './axe.ts'
import { fakeModels } from './models-support.ts'
import { createPromptViaApi, saveBodyViaApi } from './prompts-support.ts'
import { shot } from './shots.ts'
import { apiOptions, expect, signUpViaApi, test } from './support.ts'

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

/** The words of the flow, per language. */
const words = {
  en: {
    settings: 'Settings',
    models: 'Models',
    add: 'Add provider',
    addTitle: 'Add a model provider',
    editTitle: 'Edit model provider',
    name: 'Name',
    baseUrl: 'Base URL',
    apiKey: 'API key',
    fetch: 'Fetch models',
    save: 'Save',
    playground: 'Playground',
    model: 'Model',
    temperature: 'Temperature',
    maxTokens: 'Max tokens',
    variables: 'Variables',
    run: 'Run',
    answer: 'Answer',
    done: 'Done',
    figures: 'Figures of the run',
    inputTokens: 'Input tokens',
    outputTokens: 'Output tokens',
    firstToken: 'Time to first token',
  },
  de: {
    settings: 'Einstellungen',
    models: 'Modelle',
    add: 'Anbieter hinzufügen',
    addTitle: 'Modell-Anbieter hinzufügen',
    editTitle: 'Modell-Anbieter bearbeiten',
    name: 'Name',
    baseUrl: 'Basis-URL',
    apiKey: 'API-Schlüssel',
    fetch: 'Modelle abholen',
    save: 'Speichern',
    playground: 'Playground',
    model: 'Modell',
    temperature: 'Temperatur',
    maxTokens: 'Max. Tokens',
    variables: 'Variablen',
    run: 'Ausführen',
    answer: 'Antwort',
    done: 'Fertig',
    figures: 'Kennzahlen der Ausführung',
    inputTokens: 'Eingabe-Tokens',
    outputTokens: 'Ausgabe-Tokens',
    firstToken: 'Zeit bis zum ersten Token',
  },
}

/**
 * The whole flow in one language: a provider for the fake model server added in Settings → Models
 * (its models fetched), then a prompt run in the playground with the version's config prefilled.
 */
async function configureAndRun(page: Page, w: (typeof words)['en'], shotSuffix: string) {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, {
    title: 'Greeter',
    body: 'Say hello to {{name}}.',
    config: { model: 'fake-small', temperature: 0.3, max_tokens: 50 },
  })
  await page.goto('/settings')
  await page.getByRole('navigation', { name: w.settings }).getByRole('link', { name: w.models }).click()
  await page.getByRole('button', { name: w.add }).click()
  const dialog = page.getByRole('dialog', { name: w.addTitle })
  await dialog.getByLabel(w.name).fill('Fake')
  await dialog.getByLabel(w.baseUrl).fill(fakeModels.openAiBaseUrl)
  await dialog.getByLabel(w.apiKey).fill(fakeModels.apiKey)
  await dialog.getByRole('button', { name: w.add }).click()
  const edit = page.getByRole('dialog', { name: w.editTitle })
  await edit.getByRole('button', { name: w.fetch }).click()
  await expect(edit.getByLabel(w.models)).toHaveValue('fake-large\nfake-small')
  await edit.getByRole('button', { name: w.save }).click()
  await expect(edit).toHaveCount(0)
  await settled(page)
  await expectNoSeriousViolations(page, `/settings/models (${shotSuffix})`)
  await shot(page, `models-settings-${shotSuffix}`)

  await page.goto(`/prompts/${prompt.id}`)
  const playground = page.getByRole('region', { name: w.playground })
  await expect(playground.getByLabel(w.model, { exact: true })).toHaveValue('fake-small')
  await expect(playground.getByLabel(w.temperature)).toHaveValue('0.3')
  await expect(playground.getByLabel(w.maxTokens)).toHaveValue('50')
  await playground.getByRole('form', { name: w.variables }).getByLabel('name').fill('Ada')
  await playground.getByRole('button', { name: w.run }).click()
  await expect(playground.getByRole('status')).toHaveText(w.done)
  await expect(playground.getByRole('region', { name: w.answer })).toHaveText('Echo: Say hello to Ada.')
  const figures = playground.getByRole('region', { name: w.figures })
  await expect(figures).toContainText(w.firstToken)
  await expect(figures).toContainText(`${w.outputTokens}5`)
  await expect(figures).toContainText(w.inputTokens)
  await settled(page)
  await expectNoSeriousViolations(page, `playground after a run (${shotSuffix})`)
  await playground.scrollIntoViewIfNeeded()
  await shot(page, `models-playground-${shotSuffix}`)
  return prompt
}

test('configure a provider in Settings, run a prompt in the playground: the streamed answer and its figures', async ({
  page,
}) => {
  await configureAndRun(page, words.en, 'en-light')
})

test.describe('German, dark', () => {
  test.use({ locale: 'de-DE', colorScheme: 'dark' })

  test('Einstellungen → Modelle, then the playground', async ({ page }) => {
    await configureAndRun(page, words.de, 'de-dark')
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  })
})

test('the playground: another version, Stop while the answer streams, the provider’s errors as alerts', async ({
  page,
}) => {
  await signUpViaApi(page)
  const created = await page.request.post('/api/v1/model-providers', {
    data: {
      kind: 'anthropic',
      name: 'Fake Anthropic',
      baseUrl: fakeModels.anthropicBaseUrl,
      apiKey: fakeModels.apiKey,
      models: fakeModels.models,
      defaultModel: 'fake-large',
    },
    ...apiOptions(),
  })
  expect(created.status(), await created.text()).toBe(201)
  const prompt = await createPromptViaApi(page, { title: 'Two versions', body: 'First {{x}}.' })
  await saveBodyViaApi(page, prompt.id, 'Second {{x}}.')
  await page.goto(`/prompts/${prompt.id}`)
  const playground = page.getByRole('region', { name: 'Playground' })
  // No model in the config: the provider's default.
  await expect(playground.getByLabel('Model', { exact: true })).toHaveValue('fake-large')
  await playground.getByLabel('Version').selectOption({ label: 'Version 1' })
  await playground.getByRole('form', { name: 'Variables' }).getByLabel('x').fill('try')
  await playground.getByRole('button', { name: 'Run' }).click()
  await expect(playground.getByRole('region', { name: 'Answer' })).toHaveText('Echo: First try.')
  await expect(playground.getByRole('region', { name: 'Figures of the run' })).toContainText('Version 1')

  // A model that answers one piece and then nothing: the piece shows while it runs; Stop ends it.
  await playground.getByLabel('Model', { exact: true }).fill('endless-model')
  const button = playground.getByRole('button', { name: 'Run' })
  await button.click()
  await expect(playground.getByRole('region', { name: 'Answer' })).toHaveText('Thinking')
  await expect(playground.getByRole('status')).toHaveText('Running…')
  await expect(playground.getByRole('button', { name: 'Stop' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(playground.getByRole('status')).toHaveText(/^Stopped after [\d,]+ ms$/)
  await expect(playground.getByRole('region', { name: 'Answer' })).toHaveText('Thinking')

  // The provider's refusals, in words, as alerts.
  await playground.getByLabel('Model', { exact: true }).fill('missing-model')
  await playground.getByRole('button', { name: 'Run' }).click()
  await expect(playground.getByRole('alert')).toHaveText(
    'The provider does not know the model “missing-model”.',
  )
  await playground.getByLabel('Model', { exact: true }).fill('busy-model')
  await playground.getByRole('button', { name: 'Run' }).click()
  await expect(playground.getByRole('alert')).toHaveText(
    'The provider is limiting requests (HTTP 429). Try again in 7 seconds.',
  )
  await playground.getByLabel('Temperature').fill('3')
  await playground.getByRole('button', { name: 'Run' }).click()
  await expect(playground.getByText('Temperature must be between 0 and 2')).toBeVisible()
  await settled(page)
  await expectNoSeriousViolations(page, 'playground with an error')
})

test('the playground without a provider points to Settings → Models', async ({ page }) => {
  await signUpViaApi(page)
  const prompt = await createPromptViaApi(page, { title: 'Lonely', body: 'Hi.' })
  await page.goto(`/prompts/${prompt.id}`)
  const playground = page.getByRole('region', { name: 'Playground' })
  await playground.getByRole('link', { name: 'Add a model provider' }).click()
  await expect(page).toHaveURL(/\/settings\/models$/)
})
