import type { Page } from '@playwright/test'
import { expectNoSeriousViolations } from './axe.ts'
import { addProviderViaApi, fakeModels } from './models-support.ts'
import { createPromptViaApi, saveBodyViaApi } from './prompts-support.ts'
import { shot } from './shots.ts'
import { expect, signUpViaApi, test, uniqueEmail } from './support.ts'
import { createTeamWithMemberViaApi } from './teams-support.ts'

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
  await addProviderViaApi(page, {
    kind: 'anthropic',
    name: 'Fake Anthropic',
    baseUrl: fakeModels.anthropicBaseUrl,
    defaultModel: 'fake-large',
  })
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

test.describe('Compare, in German and dark', () => {
  test.use({ locale: 'de-DE', colorScheme: 'dark' })

  test('two versions side by side: both answers stream in at once, Stop ends both', async ({ page }) => {
    await signUpViaApi(page)
    await addProviderViaApi(page)
    const prompt = await createPromptViaApi(page, { title: 'Zwei Versionen', body: 'First {{x}}.' })
    await saveBodyViaApi(page, prompt.id, 'Second {{x}}.')
    await page.goto(`/prompts/${prompt.id}`)
    const playground = page.getByRole('region', { name: 'Playground' })
    // The toggle by keyboard: focus it and press Space.
    await playground.getByRole('button', { name: 'Vergleichen' }).focus()
    await page.keyboard.press('Space')
    await expect(playground.getByRole('button', { name: 'Vergleichen' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    const a = playground.getByRole('region', { name: 'Spalte A' })
    const b = playground.getByRole('region', { name: 'Spalte B' })
    await a.getByLabel('Version', { exact: true }).selectOption({ label: 'Version 1' })
    await expect(b.getByLabel('Version', { exact: true })).toHaveValue(/^version:/)
    // One variable form for both columns.
    await playground.getByRole('form', { name: 'Variablen' }).getByLabel('x').fill('Test')
    await playground.getByRole('button', { name: 'Beide ausführen' }).click()
    await expect(a.getByRole('region', { name: 'Antwort' })).toHaveText('Echo: First Test.')
    await expect(b.getByRole('region', { name: 'Antwort' })).toHaveText('Echo: Second Test.')
    await expect(a.getByRole('region', { name: 'Kennzahlen der Ausführung' })).toContainText('Version 1')
    await expect(b.getByRole('region', { name: 'Kennzahlen der Ausführung' })).toContainText('Version 2')
    await expect(b.getByRole('region', { name: 'Kennzahlen der Ausführung' })).toContainText(
      /Ausgabe-Tokens\d/,
    )
    await settled(page)
    await expectNoSeriousViolations(page, 'playground compare (de-dark)')
    await playground.scrollIntoViewIfNeeded()
    await shot(page, 'models-compare-de-dark')
    // On a narrow screen the columns stack.
    await page.setViewportSize({ width: 390, height: 844 })
    const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()]
    expect(boxB!.y).toBeGreaterThanOrEqual(boxA!.y + boxA!.height)
    await shot(page, 'models-compare-narrow-de-dark')
    await page.setViewportSize({ width: 1280, height: 720 })

    // Both streams at once: a model that answers one piece and then waits, in both columns.
    await a.getByLabel('Modell', { exact: true }).fill('endless-model')
    await b.getByLabel('Modell', { exact: true }).fill('endless-model')
    await playground.getByRole('button', { name: 'Beide ausführen' }).click()
    for (const column of [a, b]) {
      await expect(column.getByRole('region', { name: 'Antwort' })).toHaveText('Thinking')
      await expect(column.getByRole('status')).toHaveText('Läuft…')
    }
    await playground.getByRole('button', { name: 'Beide stoppen' }).click()
    for (const column of [a, b]) {
      await expect(column.getByRole('status')).toHaveText(/^Nach [\d.]+ ms gestoppt$/)
    }
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  })
})

test('edit the text and config in the playground, run the draft, save it as a new version', async ({
  page,
}) => {
  await signUpViaApi(page)
  await addProviderViaApi(page)
  const prompt = await createPromptViaApi(page, {
    title: 'Greeter',
    body: 'Hello {{name}}.',
    config: { model: 'fake-small', temperature: 0.3 },
  })
  await page.goto(`/prompts/${prompt.id}`)
  const playground = page.getByRole('region', { name: 'Playground' })
  await playground.getByRole('button', { name: 'Edit text and config' }).click()
  await expect(playground.getByLabel('Text', { exact: true })).toHaveValue('Hello {{name}}.')
  await playground.getByLabel('Text', { exact: true }).fill('Hi {{name}}, in {{words}} words.')
  await playground.getByLabel('Config (JSON)').fill('{ "stop": ["END"] }')
  await playground.getByLabel('Temperature').fill('0.7')
  // The new variable gets its field as it is typed.
  const variables = playground.getByRole('form', { name: 'Variables' })
  await variables.getByLabel('name').fill('Ada')
  await variables.getByLabel('words').fill('five')
  await playground.getByRole('button', { name: 'Run' }).click()
  await expect(playground.getByRole('region', { name: 'Answer' })).toHaveText('Echo: Hi Ada, in five words.')
  await expect(playground.getByRole('region', { name: 'Figures of the run' })).toContainText(
    'Edited draft of version 1',
  )
  await playground.getByLabel('Config (JSON)').fill('{ "stop": ')
  await playground.getByRole('button', { name: 'Save as new version' }).click()
  await expect(playground.getByText('Config must be a JSON object')).toBeVisible()
  await playground.getByLabel('Config (JSON)').fill('{ "stop": ["END"] }')
  await playground.getByLabel('Commit message').fill('Shorter greeting')
  await settled(page)
  await expectNoSeriousViolations(page, 'playground with a draft')
  await playground.scrollIntoViewIfNeeded()
  await shot(page, 'models-save-draft-en-light')
  await playground.getByRole('button', { name: 'Save as new version' }).click()

  // The page shows the new version, with the draft's text and the config it ran with.
  const current = page.getByRole('region', { name: 'Current Version' })
  await expect(current).toContainText('Version 2')
  await expect(current).toContainText('Shorter greeting')
  await expect(current).toContainText('Hi {{name}}, in {{words}} words.')
  await expect(current.getByRole('region', { name: 'Config' })).toContainText('"temperature": 0.7')
  await expect(current.getByRole('region', { name: 'Config' })).toContainText('"model": "fake-small"')
  await shot(page, 'models-saved-version-en-light')
})

test('a team admin adds a provider for the team in Settings → Models; a member runs with it but may not save versions', async ({
  page,
  browser,
}) => {
  await signUpViaApi(page)
  const memberContext = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const memberPage = await memberContext.newPage()
  const memberEmail = uniqueEmail('member')
  await signUpViaApi(memberPage, memberEmail)
  const team = await createTeamWithMemberViaApi(page, 'Model Makers', {
    page: memberPage,
    email: memberEmail,
  })

  await page.goto('/settings/models')
  await page.getByLabel('Space').selectOption({ label: 'Team: Model Makers' })
  await page.getByRole('button', { name: 'Add provider' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add a model provider' })
  await dialog.getByLabel('Name').fill('Team fake')
  await dialog.getByLabel('Base URL').fill(fakeModels.openAiBaseUrl)
  await dialog.getByLabel('API key').fill(fakeModels.apiKey)
  await dialog.getByLabel('Models').fill('fake-small')
  await dialog.getByRole('button', { name: 'Add provider' }).click()
  await page
    .getByRole('dialog', { name: 'Edit model provider' })
    .getByRole('button', { name: 'Save' })
    .click()
  await expect(page.getByRole('list', { name: 'Model providers' })).toContainText('Team fake')
  const prompt = await createPromptViaApi(page, {
    title: 'Team greeter',
    body: 'Welcome {{name}}.',
    visibility: 'team',
    teamId: team.id,
  })

  await memberPage.goto(`/prompts/${prompt.id}`)
  const playground = memberPage.getByRole('region', { name: 'Playground' })
  await expect(playground.getByLabel('Provider')).toHaveValue(/.+/)
  await expect(playground.getByLabel('Provider').locator('option:checked')).toHaveText(
    'Team fake (team Model Makers)',
  )
  await playground.getByRole('form', { name: 'Variables' }).getByLabel('name').fill('Grace')
  await playground.getByRole('button', { name: 'Run' }).click()
  await expect(playground.getByRole('region', { name: 'Answer' })).toHaveText('Echo: Welcome Grace.')
  await playground.getByRole('button', { name: 'Edit text and config' }).click()
  const save = playground.getByRole('button', { name: 'Save as new version' })
  await expect(save).toBeDisabled()
  await expect(save).toHaveAccessibleDescription(/Only people who may edit this prompt can save versions/)
  await memberContext.close()
})

test('fields for the variables of included prompts, and messages for a chat prompt’s placeholders', async ({
  page,
}) => {
  await signUpViaApi(page)
  await addProviderViaApi(page)
  await createPromptViaApi(page, { title: 'Sign-off', name: 'signoff', body: 'Sign as {{sender}}.' })
  const included = await createPromptViaApi(page, {
    title: 'Letter',
    body: 'Hi {{name}}. @@@langfusePrompt:name=signoff|label=production@@@',
  })
  await page.goto(`/prompts/${included.id}`)
  const playground = page.getByRole('region', { name: 'Playground' })
  const variables = playground.getByRole('form', { name: 'Variables' })
  await variables.getByLabel('name').fill('Ada')
  // Only the included prompt uses it: the server names it.
  await variables.getByLabel('sender').fill('Bob')
  await playground.getByRole('button', { name: 'Run' }).click()
  await expect(playground.getByRole('region', { name: 'Answer' })).toHaveText('Echo: Hi Ada. Sign as Bob.')

  const chat = await createPromptViaApi(page, {
    title: 'Chat',
    type: 'chat',
    body: JSON.stringify([
      { role: 'system', content: 'Be {{mood}}.' },
      { type: 'placeholder', name: 'history' },
    ]),
  })
  await page.goto(`/prompts/${chat.id}`)
  const history = playground.getByRole('group', { name: 'Placeholder history' })
  await expect(history).toContainText('No messages')
  await history.getByRole('button', { name: 'Add a message to history' }).click()
  await history.getByLabel('Content of message 1 in history').fill('What is new?')
  await history.getByRole('button', { name: 'Add a message to history' }).click()
  await history.getByRole('button', { name: 'Remove message 2 from history' }).click()
  await expect(history.getByRole('listitem')).toHaveCount(1)
  await playground.getByRole('button', { name: 'Run' }).click()
  await expect(playground.getByRole('region', { name: 'Answer' })).toHaveText('Echo: What is new?')
  await settled(page)
  await expectNoSeriousViolations(page, 'playground with a placeholder')
})
