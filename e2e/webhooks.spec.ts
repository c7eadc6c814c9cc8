import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { expectNoSeriousViolations } from './axe.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { shot } from './shots.ts'
import { expect, signUpViaApi, test } from './support.ts'

/** A receiver on 127.0.0.1 (the app under test runs with WEBHOOK_ALLOW_PRIVATE=1). */
async function startReceiver() {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

test.use({ bypassCSP: true })

test('add a webhook endpoint, send a test event, read the log, redeliver, reveal, pause and delete', async ({
  page,
}) => {
  const receiver = await startReceiver()
  try {
    await signUpViaApi(page)
    await page.goto('/settings/webhooks')
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'No webhook endpoints yet' })).toBeVisible()
    await expectNoSeriousViolations(page, '/settings/webhooks (empty)')

    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' })
    await dialog.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(dialog.getByText('URL is required')).toBeVisible()
    await dialog.getByLabel('Endpoint URL').fill(receiver.url)
    await dialog.getByLabel('Description').fill('E2E receiver')
    // Every event is chosen at first; keep the prompt events only.
    await dialog.getByLabel('Conversation created').uncheck()
    await dialog.getByLabel('Conversation message created').uncheck()
    await dialog.getByRole('button', { name: 'Add endpoint' }).click()
    const secret = await dialog.getByLabel('Signing secret', { exact: true }).inputValue()
    expect(secret).toMatch(/^whsec_/)
    await dialog.getByRole('button', { name: 'Done' }).click()

    const card = page.getByRole('list', { name: 'Webhook endpoints' }).getByRole('listitem').first()
    await expect(card).toContainText(receiver.url)
    await expect(card).toContainText('E2E receiver')
    await expect(card).toContainText('Enabled')
    await expect(card).not.toContainText('conversation.created')

    // A prompt saved in the app is delivered, signed with the secret.
    await createPromptViaApi(page, { title: 'Hooked', body: 'Hello' })
    await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(2)
    const created = receiver.received
      .map((request) =>
        new Webhook(secret).verify(request.body, {
          'webhook-id': String(request.headers['webhook-id']),
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        }),
      )
      .find((event) => (event as { type: string }).type === 'prompt.created')
    expect(created).toMatchObject({ data: { prompt: { title: 'Hooked' }, version: { body: 'Hello' } } })

    await card.getByRole('button', { name: `Send test event: ${receiver.url}` }).click()
    await expect(page.getByText('Test event queued').first()).toBeVisible()
    const log = card.getByRole('region', { name: `Deliveries to ${receiver.url}` })
    const testRow = log.getByRole('row').filter({ hasText: 'Test event' })
    await expect(testRow).toContainText('200')
    // The receiver is on a private address (allowed here): the log shows its status, never its body.
    await expect(testRow).not.toContainText('thanks')
    await expect(testRow).toContainText('Delivered')
    await expect(log.getByRole('row').filter({ hasText: 'Prompt created' })).toContainText('200')
    await expectNoSeriousViolations(page, '/settings/webhooks (log)')
    await shot(page, 'webhooks-delivery-log-en-light')

    const eventId = (await testRow.locator('code').first().textContent())!.trim()
    await testRow.getByRole('button', { name: `Redeliver ${eventId}` }).click()
    await expect(page.getByText('Event queued again').first()).toBeVisible()
    await expect(log.getByRole('row').filter({ hasText: eventId })).toHaveCount(2)
    await expect
      .poll(() => receiver.received.filter((r) => r.headers['webhook-id'] === eventId).length)
      .toBe(2)

    await card.getByRole('button', { name: `Reveal secret: ${receiver.url}` }).click()
    const revealed = page.getByRole('dialog', { name: 'Signing secret' })
    await expect(revealed.getByLabel('Signing secret', { exact: true })).toHaveValue(secret)
    await expectNoSeriousViolations(page, '/settings/webhooks (secret)')
    await revealed.getByRole('button', { name: 'Rotate secret' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate secret' }).click()
    await expect(page.getByText('Secret rotated').first()).toBeVisible()
    await expect(revealed.getByLabel('Signing secret', { exact: true })).not.toHaveValue(secret)
    await expect(revealed.getByRole('textbox').nth(1)).toHaveValue(secret)
    // The confirmation closes first; a click while it fades out fell on its layer (seen under load).
    await expect(page.getByRole('alertdialog')).toHaveCount(0)
    await revealed.getByRole('button', { name: 'Done' }).click()
    await expect(revealed).toBeHidden()
    // Focus goes back to the button that opened the dialog once it has faded out; moving focus
    // before that had it taken back, and Space then opened the secret again.
    await expect(card.getByRole('button', { name: `Reveal secret: ${receiver.url}` })).toBeFocused()

    // Keyboard: the switch pauses the endpoint.
    await card.getByRole('switch', { name: `Send events to ${receiver.url}` }).focus()
    await page.keyboard.press('Space')
    await expect(card).toContainText('Paused')
    await expect(card.getByRole('button', { name: `Send test event: ${receiver.url}` })).toBeDisabled()

    await card.getByRole('button', { name: `Delete: ${receiver.url}` }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByRole('heading', { name: 'No webhook endpoints yet' })).toBeVisible()
  } finally {
    await receiver.close()
  }
})
