import type { Page } from '@playwright/test'
import { expectNoSeriousViolations } from './axe.ts'
import { appendMessageViaApi, createConversationViaApi } from './conversations-support.ts'
import { addProviderViaApi } from './models-support.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { shot } from './shots.ts'
import { expect, signUpViaApi, test } from './support.ts'

// axe-core is put into the page as a script, which the app's CSP refuses without this.
test.use({ bypassCSP: true, reducedMotion: 'reduce' })

const words = {
  en: {
    messages: 'Messages',
    generate: 'Generate reply',
    stop: 'Stop',
    model: 'Model',
    assistant: 'Assistant',
    tokens: /\d+ tokens/,
    stopped: 'Stopped. Nothing was saved.',
    usage: 'Model usage',
    replies: 'Generated replies',
  },
  de: {
    messages: 'Nachrichten',
    generate: 'Antwort erzeugen',
    stop: 'Anhalten',
    model: 'Modell',
    assistant: 'Assistent',
    tokens: /\d+ Token/,
    stopped: 'Angehalten. Nichts wurde gespeichert.',
    usage: 'Modellnutzung',
    replies: 'Erzeugte Antworten',
  },
}

/**
 * A conversation answered by a model: Generate reply streams the answer into the list, where it
 * stays as the assistant's message with its model badge and token count; a stopped reply saves
 * nothing; the dashboard counts the reply.
 */
async function generateReply(page: Page, w: (typeof words)['en'], suffix: string) {
  await signUpViaApi(page)
  await addProviderViaApi(page, { models: ['fake-small', 'endless-model'] })
  const persona = await createPromptViaApi(page, { title: 'Persona', body: 'Answer like a sailor.' })
  const conversation = await createConversationViaApi(page, { title: 'Sea questions' })
  await appendMessageViaApi(page, conversation.id, {
    content: { text: 'Where is the harbour?' },
    attachments: [{ promptId: persona.id }],
  })
  await page.goto(`/conversations/${conversation.id}`)
  const list = page.getByRole('region', { name: w.messages })
  await expect(list.getByRole('article')).toHaveCount(1)
  await expect(page.getByLabel(w.model, { exact: true })).toHaveValue('fake-small')
  await page.getByRole('button', { name: w.generate }).click()

  const reply = list.getByRole('article', { name: w.assistant })
  // The attached prompt went before the message's text, so the echo shows it.
  await expect(reply).toContainText('Echo: Answer like a sailor.')
  await expect(reply).toContainText('fake-small')
  await expect(reply).toContainText(w.tokens)
  await expect(page.getByRole('button', { name: w.generate })).toBeEnabled()
  await expectNoSeriousViolations(page, `conversation with a generated reply (${suffix})`)
  await shot(page, `conversation-reply-${suffix}`)

  // A model that never finishes: Stop ends it and nothing is kept.
  await page.getByLabel(w.model, { exact: true }).fill('endless-model')
  await page.getByRole('button', { name: w.generate }).click()
  await expect(list.getByRole('article').last()).toContainText('Thinking')
  await page.getByRole('button', { name: w.stop }).click()
  await expect(page.getByRole('status').filter({ hasText: w.stopped })).toBeVisible()
  await expect(list.getByRole('article')).toHaveCount(2)

  await page.goto('/')
  const usage = page.getByRole('region', { name: w.usage })
  await expect(usage).toContainText(w.replies)
  await usage.scrollIntoViewIfNeeded()
  await shot(page, `dashboard-model-usage-${suffix}`)
  return reply
}

test('generate a reply in a conversation: streamed in, stored with its model badge and token count', async ({
  page,
}) => {
  await generateReply(page, words.en, 'en-light')
})

test.describe('German, dark', () => {
  test.use({ locale: 'de-DE', colorScheme: 'dark' })

  test('Antwort erzeugen in einer Unterhaltung', async ({ page }) => {
    await generateReply(page, words.de, 'de-dark')
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  })
})
