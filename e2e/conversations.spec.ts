import type { Page } from '@playwright/test'
import { appendMessageViaApi, createConversationViaApi } from './conversations-support.ts'
import { createPromptViaApi, saveBodyViaApi } from './prompts-support.ts'
import { expect, signUpViaApi, test, uniqueEmail, watchReads } from './support.ts'
import { createTeamWithMemberViaApi } from './teams-support.ts'

test.beforeEach(async ({ page }) => {
  await signUpViaApi(page)
})

test('create a conversation with a first message and tags', async ({ page }) => {
  await page.goto('/conversations')
  await expect(page.getByRole('heading', { name: 'Conversations', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No conversations yet' })).toBeVisible()
  // without teams there are no tabs and no team selector
  await expect(page.getByRole('tab', { name: 'My Conversations' })).toHaveCount(0)

  await page.getByRole('button', { name: 'New Conversation' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'New Conversation' })
  await dialog.getByRole('button', { name: 'Create Conversation' }).click()
  await expect(dialog.getByText('Title is required')).toBeVisible()
  await expect(dialog.getByLabel('Team')).toHaveCount(0)

  await dialog.getByLabel('Title').fill('Launch email ideas')
  await dialog.getByLabel('First message (optional)').fill('Give me three subject lines.')
  await dialog.getByLabel('Tags').fill(' marketing, , email ,marketing')
  await dialog.getByRole('button', { name: 'Create Conversation' }).click()

  await expect(page.getByText('Conversation created', { exact: true })).toBeVisible()
  await expect(page).toHaveURL(/\/conversations\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { name: 'Launch email ideas', level: 1 })).toBeVisible()
  await expect(page.getByText('#marketing')).toBeVisible()
  await expect(page.getByText('#email')).toBeVisible()
  const message = page.getByRole('article', { name: 'You' })
  await expect(message.getByText('Give me three subject lines.')).toBeVisible()

  await page.getByRole('link', { name: 'Conversations' }).first().click()
  await expect(page.getByRole('link', { name: 'Launch email ideas' })).toBeVisible()
  await expect(page.getByText('just now')).toBeVisible()
})

test('send with Enter, add lines with Shift+Enter, log an assistant reply with model and tokens', async ({
  page,
}) => {
  const conversation = await createConversationViaApi(page, { title: 'Chat' })
  await page.goto(`/conversations/${conversation.id}`)
  await expect(page.getByText('No messages yet')).toBeVisible()

  const composer = page.getByRole('textbox', { name: 'Message', exact: true })
  await composer.fill('First line')
  await composer.press('Shift+Enter')
  await composer.pressSequentially('Second line')
  await expect(composer).toHaveValue('First line\nSecond line')
  await composer.press('Enter')
  const mine = page.getByRole('article', { name: 'You' })
  await expect(mine).toContainText('First line\nSecond line')
  await expect(composer).toHaveValue('')

  // Enter on a blank message sends nothing
  await composer.press('Enter')
  await expect(page.getByRole('article')).toHaveCount(1)

  await page.getByRole('radio', { name: 'Assistant' }).check({ force: true })
  await page.getByLabel('Model').fill('gpt-4o')
  await page.getByLabel('Tokens').fill('1.5')
  await expect(page.getByText('Token count must be a whole number of 0 or more')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled()
  await page.getByLabel('Tokens').fill('128')
  await composer.fill('Here are three subject lines.')
  await composer.press('Enter')
  const reply = page.getByRole('article', { name: 'Assistant' })
  await expect(reply).toContainText('Here are three subject lines.')
  await expect(reply.getByText('gpt-4o')).toBeVisible()
  await expect(reply.getByText('128 tokens')).toBeVisible()

  await page.reload()
  await expect(page.getByRole('article')).toHaveCount(2)
  await expect(page.getByRole('article').last()).toHaveAccessibleName('Assistant')
})

test('edit and delete a message', async ({ page }) => {
  const conversation = await createConversationViaApi(page, { title: 'Edits', firstMessage: 'Draft text' })
  await appendMessageViaApi(page, conversation.id, { content: { text: 'Second message' } })
  await page.goto(`/conversations/${conversation.id}`)
  const first = page.getByRole('article').first()
  await expect(first).toContainText('Draft text')

  await first.getByRole('button', { name: 'Message actions' }).click()
  await page.getByRole('menuitem', { name: 'Edit' }).click()
  const editor = first.getByRole('textbox', { name: 'Edit message' })
  await editor.fill('Changed, then thrown away')
  await editor.press('Escape')
  await expect(first).toContainText('Draft text')

  await first.getByRole('button', { name: 'Message actions' }).click()
  await page.getByRole('menuitem', { name: 'Edit' }).click()
  await editor.fill('Final text')
  await first.getByRole('button', { name: 'Save' }).click()
  const edited = page.getByRole('article').filter({ hasText: 'Final text' })
  await expect(edited).toBeVisible()
  await expect(editor).toHaveCount(0)

  const second = page.getByRole('article').filter({ hasText: 'Second message' })
  await second.getByRole('button', { name: 'Message actions' }).click()
  await page.getByRole('menuitem', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete message?' })
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(second).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('article')).toHaveCount(1)
  await expect(page.getByRole('article')).toContainText('Final text')
})

test('edit the title and tags in place: Enter saves, Escape cancels', async ({ page }) => {
  const conversation = await createConversationViaApi(page, { title: 'Old title', tags: ['one'] })
  await page.goto(`/conversations/${conversation.id}`)

  await page.getByRole('button', { name: 'Edit title' }).click()
  const title = page.getByRole('textbox', { name: 'Conversation title' })
  await title.fill('Never saved')
  await title.press('Escape')
  await expect(page.getByRole('heading', { name: 'Old title', level: 1 })).toBeVisible()

  await page.getByRole('button', { name: 'Edit title' }).click()
  await title.fill('   ')
  await title.press('Enter')
  await expect(page.getByText('Title is required')).toBeVisible()
  await title.fill('New title')
  await title.press('Enter')
  await expect(page.getByRole('heading', { name: 'New title', level: 1 })).toBeVisible()

  await page.getByRole('button', { name: 'Edit tags' }).click()
  const tags = page.getByRole('textbox', { name: 'Tags, separated by commas' })
  await expect(tags).toHaveValue('one')
  await tags.fill('one, two ,three')
  await tags.press('Enter')
  for (const tag of ['#one', '#two', '#three'])
    await expect(page.getByText(tag, { exact: true })).toBeVisible()

  await page.reload()
  await expect(page.getByRole('heading', { name: 'New title', level: 1 })).toBeVisible()
  await expect(page.getByText('#three', { exact: true })).toBeVisible()
})

test('filter the list by tag chips and search', async ({ page }) => {
  await createConversationViaApi(page, { title: 'Alpha plan', tags: ['plan', 'q1', 'work', 'later'] })
  await createConversationViaApi(page, { title: 'Beta plan', tags: ['plan'] })
  await createConversationViaApi(page, { title: 'Groceries', tags: ['home'] })
  await page.goto('/conversations')
  const cards = page.getByRole('list', { name: 'Conversations' }).getByRole('link')
  await expect(cards).toHaveCount(3)
  // up to 3 tags on a card, then +N
  const alpha = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Alpha plan' }) })
  await expect(alpha.getByRole('button', { name: /^Show only conversations tagged/ })).toHaveCount(3)
  await expect(alpha.getByText('+1')).toBeVisible()

  await alpha.getByRole('button', { name: 'Show only conversations tagged plan' }).click()
  await expect(page.getByText('Filtered by tag:')).toBeVisible()
  await expect(cards).toHaveCount(2)
  await alpha.getByRole('button', { name: 'Show only conversations tagged q1' }).click()
  await expect(cards).toHaveCount(1)
  await expect(page).toHaveURL(/tags=plan&tags=q1/)

  await page.getByRole('button', { name: 'Remove tag filter q1' }).click()
  await expect(cards).toHaveCount(2)
  await page.getByRole('button', { name: 'Remove tag filter plan' }).click()
  await expect(cards).toHaveCount(3)
  await expect(page.getByText('Filtered by tag:')).toHaveCount(0)

  await page.getByRole('searchbox', { name: 'Search conversations by title' }).fill('  PLAN ')
  await expect(cards).toHaveCount(2)
  await page.getByRole('searchbox', { name: 'Search conversations by title' }).fill('nothing like this')
  await expect(page.getByRole('heading', { name: 'No conversations match' })).toBeVisible()
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect(cards).toHaveCount(3)
})

test('delete the conversation', async ({ page }) => {
  const conversation = await createConversationViaApi(page, { title: 'Short lived', firstMessage: 'bye' })
  await page.goto(`/conversations/${conversation.id}`)
  await page.getByRole('button', { name: 'Conversation actions' }).click()
  await page.getByRole('menuitem', { name: 'Delete conversation' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete conversation?' })
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toBeHidden()
  await page.getByRole('button', { name: 'Conversation actions' }).click()
  await page.getByRole('menuitem', { name: 'Delete conversation' }).click()
  await confirm.getByRole('button', { name: 'Delete conversation' }).click()
  await expect(page.getByText('Conversation deleted', { exact: true })).toBeVisible()
  await expect(page).toHaveURL(/\/conversations$/)
  await expect(page.getByRole('link', { name: 'Short lived' })).toHaveCount(0)

  await page.goto(`/conversations/${conversation.id}`)
  await expect(page.getByRole('heading', { name: 'Conversation not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Back to conversations' }).click()
  await expect(page).toHaveURL(/\/conversations$/)
})

test('a first visit asks for the conversation and its newest messages once each, side by side', async ({
  page,
}) => {
  const conversation = await createConversationViaApi(page, { title: 'Asked once' })
  await appendMessageViaApi(page, conversation.id, { content: { text: 'Only message' } })
  const base = `/api/v1/conversations/${conversation.id}`
  const events = watchReads(page, { conversation: base, messages: `${base}/messages` })
  await page.goto(`/conversations/${conversation.id}`)
  await expect(page.getByText('Only message', { exact: true })).toBeVisible()
  expect(events.filter((event) => event.startsWith('ask')).sort()).toEqual([
    'ask conversation',
    'ask messages',
  ])
  // The route asks for both as it is entered; the screen used to ask for the messages only once
  // the conversation had arrived.
  expect(events.indexOf('ask messages')).toBeLessThan(events.indexOf('got conversation'))
})

test('opens at the newest messages and loads older ones when scrolled up', async ({ page }) => {
  // 105 messages written through the API first, then 50 rendered and scrolled to: more than the
  // default budgets on a busy machine.
  test.slow()
  const conversation = await createConversationViaApi(page, { title: 'Long one' })
  for (let i = 1; i <= 105; i += 1) {
    await appendMessageViaApi(page, conversation.id, { content: { text: `Message number ${i}` } })
  }
  await page.goto(`/conversations/${conversation.id}`)
  await expect(page.getByText('Message number 105', { exact: true })).toBeInViewport({ timeout: 30_000 })
  await expect(page.getByText('Message number 5', { exact: true })).toHaveCount(0)
  await page.getByRole('region', { name: 'Messages' }).evaluate((element) => {
    element.scrollTop = 0
  })
  await expect(page.getByText('Message number 1', { exact: true })).toBeVisible()
  await expect(page.getByRole('article')).toHaveCount(105)
})

test.describe('when the server fails', () => {
  test.use({ expectedConsoleError: /status of 503/ })

  test('the list offers Retry; a failed send keeps the text and says why', async ({ page }) => {
    const conversation = await createConversationViaApi(page, { title: 'Still here' })
    let failing = true
    await page.route('**/api/v1/conversations?**', (route) =>
      failing
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'transient', message: 'Try later' } }),
          })
        : route.fallback(),
    )
    await page.goto('/conversations')
    await expect(page.getByText('Failed to load conversations. Please try again.')).toBeVisible()
    failing = false
    await page.getByRole('button', { name: 'Retry' }).click()
    await expect(page.getByRole('link', { name: 'Still here' })).toBeVisible()

    await page.route(`**/api/v1/conversations/${conversation.id}/messages`, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({
              error: { code: 'transient', message: 'The service is temporarily unavailable' },
            }),
          })
        : route.fallback(),
    )
    await page.getByRole('link', { name: 'Still here' }).click()
    const composer = page.getByRole('textbox', { name: 'Message', exact: true })
    await composer.fill('Keep me')
    await composer.press('Enter')
    await expect(page.getByText('Failed to send message', { exact: true })).toBeVisible()
    await expect(page.getByText('The service is temporarily unavailable', { exact: true })).toBeVisible()
    await expect(composer).toHaveValue('Keep me')
  })
  test('every other failed change names what failed, with the server’s reason', async ({ page }) => {
    const conversation = await createConversationViaApi(page, { title: 'Fragile', firstMessage: 'Hello' })
    const unavailable = {
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({
        error: { code: 'transient', message: 'The service is temporarily unavailable' },
      }),
    }
    const reason = page.getByText('The service is temporarily unavailable', { exact: true }).first()

    // The messages do not load (after the retries the screen gives up).
    const messagesUrl = `**/api/v1/conversations/${conversation.id}/messages?**`
    await page.route(messagesUrl, (route) => route.fulfill(unavailable))
    await page.goto(`/conversations/${conversation.id}`)
    await expect(page.getByText('Failed to load messages. Please refresh the page.')).toBeVisible()
    await page.unroute(messagesUrl)
    await page.reload()
    const message = page.getByRole('article', { name: 'You' })
    await expect(message).toContainText('Hello')

    // Every write from here on fails; reads still work.
    await page.route('**/api/v1/**', (route) =>
      route.request().method() === 'GET' ? route.fallback() : route.fulfill(unavailable),
    )

    await page.getByRole('button', { name: 'Edit title' }).click()
    const title = page.getByRole('textbox', { name: 'Conversation title' })
    await title.fill('Renamed')
    await title.press('Enter')
    await expect(page.getByText('Failed to update conversation', { exact: true })).toBeVisible()
    await expect(reason).toBeVisible()
    await title.press('Escape')

    await message.getByRole('button', { name: 'Message actions' }).click()
    await page.getByRole('menuitem', { name: 'Edit' }).click()
    await message.getByRole('textbox', { name: 'Edit message' }).fill('Hello again')
    await message.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Failed to update message', { exact: true })).toBeVisible()
    await message.getByRole('button', { name: 'Cancel' }).click()

    await message.getByRole('button', { name: 'Message actions' }).click()
    await page.getByRole('menuitem', { name: 'Delete' }).click()
    const confirmMessage = page.getByRole('alertdialog', { name: 'Delete message?' })
    await confirmMessage.getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('Failed to delete message', { exact: true })).toBeVisible()
    await confirmMessage.getByRole('button', { name: 'Cancel' }).click()
    await expect(message).toContainText('Hello')

    await page.getByRole('button', { name: 'Conversation actions' }).click()
    await page.getByRole('menuitem', { name: 'Delete conversation' }).click()
    const confirmConversation = page.getByRole('alertdialog', { name: 'Delete conversation?' })
    await confirmConversation.getByRole('button', { name: 'Delete conversation' }).click()
    await expect(page.getByText('Failed to delete conversation', { exact: true })).toBeVisible()
    await confirmConversation.getByRole('button', { name: 'Cancel' }).click()
    await expect(page).toHaveURL(`/conversations/${conversation.id}`)

    await page.goto('/conversations')
    await page.getByRole('button', { name: 'New Conversation' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'New Conversation' })
    await dialog.getByLabel('Title').fill('Never made')
    await dialog.getByRole('button', { name: 'Create Conversation' }).click()
    await expect(page.getByText('Failed to create conversation', { exact: true })).toBeVisible()
    await expect(dialog.getByText('The service is temporarily unavailable').first()).toBeVisible()
  })
})

test.describe('German', () => {
  test.use({ locale: 'de-DE' })

  test('shows the list and server messages in German', async ({ page }) => {
    await page.goto('/conversations')
    await expect(page.getByRole('heading', { name: 'Unterhaltungen', level: 1 })).toBeVisible()
    await page.getByRole('button', { name: 'Neue Unterhaltung' }).first().click()
    await page.getByRole('button', { name: 'Unterhaltung erstellen' }).click()
    await expect(page.getByText('Titel ist erforderlich')).toBeVisible()
  })
})

test.describe('prompts in conversations', () => {
  /** Opens a new conversation whose message 'Check my tone' has the prompt 'Tone checker' attached. */
  async function openMessageWithToneChecker(page: Page, title: string) {
    const prompt = await createPromptViaApi(page, { title: 'Tone checker' })
    const conversation = await createConversationViaApi(page, { title })
    await appendMessageViaApi(page, conversation.id, {
      content: { text: 'Check my tone' },
      attachments: [{ promptId: prompt.id }],
    })
    await page.goto(`/conversations/${conversation.id}`)
    return page.getByRole('article', { name: 'You' })
  }

  test('attach the latest and a specific version, then see where each version is used', async ({ page }) => {
    const prompt = await createPromptViaApi(page, {
      title: 'Subject line writer',
      body: 'Write subject lines.',
    })
    await saveBodyViaApi(page, prompt.id, 'Write five subject lines.')
    const conversation = await createConversationViaApi(page, { title: 'Newsletter' })
    await page.goto(`/conversations/${conversation.id}`)

    // In the composer: pick latest, then version 1 from the versions list.
    await page.getByRole('button', { name: 'Attach prompt' }).click()
    const picker = page.getByRole('dialog', { name: 'Attach a prompt' })
    await expect(picker.getByRole('tab', { name: 'My Prompts' })).toHaveAttribute('aria-selected', 'true')
    const row = picker.getByRole('listitem', { name: 'Subject line writer' })
    await row.getByRole('button', { name: 'Attach latest' }).click()
    await expect(picker).toBeHidden()
    const pending = page.getByRole('list', { name: 'Prompts to attach' })
    await expect(pending.getByText('latest')).toBeVisible()

    await page.getByRole('button', { name: 'Attach prompt' }).click()
    await picker.getByRole('searchbox', { name: 'Search prompts by title' }).fill('SUBJECT')
    await picker.getByRole('button', { name: 'Versions' }).click()
    const versions = picker.getByRole('list', { name: 'Versions of Subject line writer' })
    await expect(versions.getByText('Version 2')).toBeVisible()
    await versions.getByRole('button', { name: 'Attach version 1 of Subject line writer' }).click()
    await expect(pending.getByText('v1')).toBeVisible()

    const composer = page.getByRole('textbox', { name: 'Message', exact: true })
    await composer.fill('Use these prompts')
    await composer.press('Enter')
    const message = page.getByRole('article', { name: 'You' })
    await expect(message.getByRole('link', { name: 'Subject line writer' })).toHaveCount(2)
    await expect(message.getByText('latest')).toBeVisible()
    await expect(message.getByText('v1')).toBeVisible()
    await expect(pending).toHaveCount(0)

    // From the message's menu: version 2.
    await message.getByRole('button', { name: 'Message actions' }).click()
    await page.getByRole('menuitem', { name: 'Attach prompt' }).click()
    await picker.getByRole('button', { name: 'Versions' }).click()
    await picker.getByRole('button', { name: 'Attach version 2 of Subject line writer' }).click()
    await expect(page.getByText('Prompt attached', { exact: true })).toBeVisible()
    await expect(message.getByText('v2')).toBeVisible()

    // Attaching the same version again says why it failed.
    await message.getByRole('button', { name: 'Message actions' }).click()
    await page.getByRole('menuitem', { name: 'Attach prompt' }).click()
    await picker.getByRole('button', { name: 'Versions' }).click()
    await picker.getByRole('button', { name: 'Attach version 2 of Subject line writer' }).click()
    await expect(page.getByText('Failed to attach', { exact: true })).toBeVisible()
    await expect(
      page.getByText('This prompt version is already attached to the message', { exact: true }),
    ).toBeVisible()
    await picker.getByRole('button', { name: 'Close', exact: true }).click()

    await message.getByRole('link', { name: 'Subject line writer' }).first().click()
    await expect(page).toHaveURL(`/prompts/${prompt.id}`)
    const usage = page.getByRole('region', { name: 'Used in conversations' })
    await expect(usage.getByText('Used in 1 conversation').first()).toBeVisible()
    await expect(usage.getByRole('listitem').filter({ hasText: 'Version 2' })).toContainText(
      'Used in 1 conversation',
    )
    await expect(usage.getByRole('listitem').filter({ hasText: 'Latest version' })).toContainText(
      'Newsletter',
    )
    await usage.getByRole('link', { name: 'Newsletter' }).first().click()
    await expect(page).toHaveURL(`/conversations/${conversation.id}`)
  })

  test('with an error toast over the picker, Escape closes the picker first; the toast closes by its button, by a swipe and by the next Escape', async ({
    page,
  }) => {
    const message = await openMessageWithToneChecker(page, 'Escapes')
    const picker = page.getByRole('dialog', { name: 'Attach a prompt' })
    // Found by role: the toast is in the accessibility tree (not hidden with the page behind the
    // dialog), inside the dialog while it is open and back on the page after.
    const toast = page
      .getByRole('region', { name: 'Notifications (F8)' })
      .getByRole('listitem')
      .filter({ hasText: 'Failed to attach' })
    const openPicker = async () => {
      await message.getByRole('button', { name: 'Message actions' }).click()
      await page.getByRole('menuitem', { name: 'Attach prompt' }).click()
    }
    // 'Attach latest' again: already attached, so an error toast opens over the picker.
    const failToAttach = async () => {
      await picker
        .getByRole('listitem', { name: 'Tone checker' })
        .getByRole('button', { name: 'Attach latest' })
        .click()
      await expect(toast).toBeVisible()
    }

    await openPicker()
    await failToAttach()
    await expect(picker.getByRole('region', { name: 'Notifications (F8)' })).toContainText(
      'This prompt version is already attached to the message',
    )
    await toast.getByRole('button', { name: 'Close notification' }).click()
    await expect(toast).toBeHidden()
    await expect(picker).toBeVisible()

    await failToAttach()
    // Hovering holds the toast open, so only a gesture or a key can close it.
    await toast.hover()
    const box = (await toast.boundingBox())!
    await page.mouse.down()
    await page.mouse.move(box.x + box.width + 200, box.y + box.height / 2, { steps: 10 })
    await page.mouse.up()
    await expect(toast).toBeHidden()
    await expect(picker).toBeVisible()

    await failToAttach()
    await page.keyboard.press('Escape')
    await expect(picker).toBeHidden()
    await expect(toast).toBeVisible()
    await expect(page.getByRole('main').getByRole('region', { name: 'Notifications (F8)' })).toHaveCount(0)
    await toast.hover()
    await page.keyboard.press('Escape')
    await expect(toast).toBeHidden()
  })

  test('the picker says what it is loading: the prompts, then a prompt’s versions', async ({ page }) => {
    await createPromptViaApi(page, { title: 'Slow prompt' })
    const conversation = await createConversationViaApi(page, { title: 'Waiting' })
    await page.goto(`/conversations/${conversation.id}`)
    await expect(page.getByText('No messages yet')).toBeVisible()
    // Each answer waits until the test has seen the loading state.
    const hold = async (url: string) => {
      let release: () => void = () => {}
      const answered = new Promise<void>((resolve) => {
        release = resolve
      })
      await page.route(url, async (route) => {
        await answered
        await route.fallback()
      })
      return release
    }
    const releasePrompts = await hold('**/api/v1/prompts?**')

    await page.getByRole('button', { name: 'Attach prompt' }).click()
    const picker = page.getByRole('dialog', { name: 'Attach a prompt' })
    await expect(picker.getByRole('status').filter({ hasText: 'Loading prompts…' })).toHaveCount(1)
    releasePrompts()
    const row = picker.getByRole('listitem', { name: 'Slow prompt' })
    await expect(row).toBeVisible()

    const releaseVersions = await hold('**/api/v1/prompts/*/versions')
    await row.getByRole('button', { name: 'Versions' }).click()
    await expect(row.getByRole('status').filter({ hasText: 'Loading versions…' })).toHaveCount(1)
    releaseVersions()
    await expect(row.getByRole('button', { name: 'Attach version 1 of Slow prompt' })).toBeVisible()
  })

  test.describe('removing an attachment', () => {
    test.use({ expectedConsoleError: /status of 503/ })

    test('disappears at once and comes back when the server refuses', async ({ page }) => {
      const message = await openMessageWithToneChecker(page, 'Tone')
      const chip = message.getByRole('link', { name: 'Tone checker' })
      await expect(chip).toBeVisible()

      let release: () => void = () => {}
      const answered = new Promise<void>((resolve) => {
        release = resolve
      })
      await page.route('**/api/v1/messages/*/attachments/*', async (route) => {
        await answered
        await route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'transient', message: 'Try again in a moment' } }),
        })
      })
      await message.getByRole('button', { name: 'Remove Tone checker' }).click()
      await expect(chip).toHaveCount(0)
      release()
      await expect(page.getByText('Failed to remove attachment', { exact: true })).toBeVisible()
      await expect(chip).toBeVisible()

      await page.unroute('**/api/v1/messages/*/attachments/*')
      await message.getByRole('button', { name: 'Remove Tone checker' }).click()
      await expect(chip).toHaveCount(0)
      await page.reload()
      await expect(page.getByRole('article', { name: 'You' })).toContainText('Check my tone')
      await expect(page.getByRole('link', { name: 'Tone checker' })).toHaveCount(0)
    })
  })
})

test.describe('with a team', () => {
  test('team tabs, the team selector, and what a member may do', async ({ browser, page }) => {
    await signUpViaApi(page, uniqueEmail('owner'))
    const memberPage = await (await browser.newContext()).newPage()
    const memberEmail = await signUpViaApi(memberPage, uniqueEmail('member'))
    const team = await createTeamWithMemberViaApi(page, 'Growth', { page: memberPage, email: memberEmail })
    await createPromptViaApi(page, { title: 'Shared brief', visibility: 'team', teamId: team.id })

    await page.goto('/conversations')
    await page.getByRole('button', { name: 'New Conversation' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'New Conversation' })
    await dialog.getByLabel('Title').fill('Team plan')
    await dialog.getByLabel('Team').selectOption({ label: 'Growth' })
    await dialog.getByRole('button', { name: 'Create Conversation' }).click()
    await expect(page.getByRole('heading', { name: 'Team plan', level: 1 })).toBeVisible()
    await expect(page.getByRole('main').getByText('Growth', { exact: true })).toBeVisible()

    await memberPage.goto('/conversations')
    await expect(memberPage.getByRole('heading', { name: 'No conversations yet' })).toBeVisible()
    await memberPage.getByRole('tab', { name: 'Team Conversations' }).click()
    await memberPage.getByRole('link', { name: 'Team plan' }).click()
    // A member reads and writes, but may not rename or delete the conversation.
    await expect(memberPage.getByRole('heading', { name: 'Team plan', level: 1 })).toBeVisible()
    await expect(memberPage.getByRole('button', { name: 'Edit title' })).toHaveCount(0)
    await expect(memberPage.getByRole('button', { name: 'Conversation actions' })).toHaveCount(0)
    await memberPage.getByRole('button', { name: 'Attach prompt' }).click()
    const picker = memberPage.getByRole('dialog', { name: 'Attach a prompt' })
    await expect(picker.getByText('No prompts yet')).toBeVisible()
    await picker.getByRole('tab', { name: 'Team Prompts' }).click()
    await picker
      .getByRole('listitem', { name: 'Shared brief' })
      .getByRole('button', { name: 'Attach latest' })
      .click()
    const composer = memberPage.getByRole('textbox', { name: 'Message', exact: true })
    await composer.fill('Hello from a member')
    await composer.press('Enter')
    const sent = memberPage.getByRole('article', { name: 'You' })
    await expect(sent).toContainText('Hello from a member')
    await expect(sent.getByRole('link', { name: 'Shared brief' })).toBeVisible()

    // The owner (team admin) sees the member's message under the member's email and may moderate it.
    await page.reload()
    const fromMember = page.getByRole('article', { name: memberEmail })
    await expect(fromMember).toContainText('Hello from a member')
    await expect(fromMember.getByRole('button', { name: 'Message actions' })).toBeVisible()
    await memberPage.context().close()
  })
})
