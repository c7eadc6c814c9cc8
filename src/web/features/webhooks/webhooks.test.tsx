import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { type WebhookEndpoint, webhookEventTypes } from '../../../domain/webhooks.ts'
import { errorAnswer, render, stubServer } from '../../testing/render.tsx'
import { AddEndpointDialog, EndpointList } from './index.ts'

const endpoint: WebhookEndpoint = {
  id: '0b5a3f4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b',
  teamId: null,
  url: 'https://hooks.example.com/in',
  description: 'CI',
  events: ['prompt.created'],
  enabled: true,
  disabledReason: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
}

async function openAddDialog(allowed = () => true) {
  const screenUser = render(<AddEndpointDialog teamId={null} allowed={allowed} />)
  await screenUser.user.click(screen.getByRole('button', { name: 'Add endpoint' }))
  return { ...screenUser, dialog: await screen.findByRole('dialog', { name: 'Add a webhook endpoint' }) }
}

describe('adding a webhook endpoint', () => {
  it('needs an http(s) URL and at least one event before it asks the server', async () => {
    const seen = stubServer(() => undefined)
    const { user, dialog } = await openAddDialog()
    const form = within(dialog)
    await user.type(form.getByLabelText('Endpoint URL'), 'ftp://files.example.com')
    // Every event is chosen at first; untick them all.
    for (const type of webhookEventTypes)
      await user.click(form.getByRole('checkbox', { name: new RegExp(type.replaceAll('.', '\\.')) }))
    await user.click(form.getByRole('button', { name: 'Add endpoint' }))
    expect(await form.findByText('Enter a valid http:// or https:// URL')).toBeTruthy()
    expect(form.getByText('Choose at least one event').getAttribute('role')).toBe('alert')
    expect(form.getByRole('group', { name: 'Events' }).getAttribute('aria-invalid')).toBe('true')
    expect(seen).toEqual([])
  })

  it('sends the endpoint, then shows its signing secret once', async () => {
    const seen = stubServer((request) =>
      request.method === 'POST' ? { body: { ...endpoint, secret: 'whsec_abc123' } } : undefined,
    )
    const { user, dialog } = await openAddDialog()
    const form = within(dialog)
    await user.type(form.getByLabelText('Endpoint URL'), endpoint.url)
    await user.type(form.getByLabelText('Description'), 'CI')
    await user.click(form.getByRole('checkbox', { name: /prompt\.deleted/ }))
    await user.click(form.getByRole('button', { name: 'Add endpoint' }))
    expect(await form.findByRole('status')).toBeTruthy()
    expect((form.getByLabelText('Signing secret') as HTMLInputElement).value).toBe('whsec_abc123')
    expect(seen[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/webhooks',
      body: {
        url: endpoint.url,
        description: 'CI',
        events: webhookEventTypes.filter((type) => type !== 'prompt.deleted'),
        enabled: true,
        teamId: '',
      },
    })
    await user.click(form.getByRole('button', { name: 'Done' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it("puts the server's field error next to the field", async () => {
    stubServer(() =>
      errorAnswer(422, 'validation', 'Check the highlighted fields', {
        fields: { url: 'This URL points to a private network address' },
      }),
    )
    const { user, dialog } = await openAddDialog()
    const form = within(dialog)
    await user.type(form.getByLabelText('Endpoint URL'), 'http://10.0.0.1/hook')
    await user.click(form.getByRole('button', { name: 'Add endpoint' }))
    expect(await form.findByText('This URL points to a private network address')).toBeTruthy()
    expect(form.getByLabelText('Endpoint URL').getAttribute('aria-invalid')).toBe('true')
  })

  it('keeps the form closed when the plan has no webhooks (the paywall asks first)', async () => {
    const { user } = render(<AddEndpointDialog teamId={null} allowed={() => false} />)
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it("closes the form and shows the paywall on the server's plan_limit", async () => {
    stubServer(() =>
      errorAnswer(403, 'plan_limit', 'Webhooks are not included in your plan.', {
        planLimit: {
          context: 'personal',
          reason: 'feature_not_available',
          resource: 'webhooks',
          used: null,
          max: null,
        },
      }),
    )
    const { user, dialog } = await openAddDialog()
    await user.type(within(dialog).getByLabelText('Endpoint URL'), endpoint.url)
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }))
    expect(await screen.findByRole('dialog', { name: 'Feature not available' })).toBeTruthy()
    expect(screen.queryByRole('dialog', { name: 'Add a webhook endpoint' })).toBeNull()
  })
})

describe("a webhook endpoint's card", () => {
  const listed = () =>
    stubServer((request) => {
      if (request.method === 'GET' && request.path === '/api/v1/webhooks')
        return { body: { items: [endpoint] } }
      if (request.method === 'PATCH') return { body: { ...endpoint, ...(request.body as object) } }
      if (request.method === 'DELETE') return { status: 204 }
      return undefined
    })

  it('edits the URL, description and events, not whether it is enabled', async () => {
    const seen = listed()
    const { user } = render(<EndpointList teamId={null} allowed={() => true} />)
    await user.click(await screen.findByRole('button', { name: `Edit: ${endpoint.url}` }))
    const form = within(await screen.findByRole('dialog', { name: 'Edit webhook endpoint' }))
    expect((form.getByLabelText('Endpoint URL') as HTMLInputElement).value).toBe(endpoint.url)
    expect(form.getByRole('checkbox', { name: /prompt\.created/ }).getAttribute('aria-checked')).toBe('true')
    expect(form.getByRole('checkbox', { name: /prompt\.deleted/ }).getAttribute('aria-checked')).toBe('false')
    await user.clear(form.getByLabelText('Description'))
    await user.type(form.getByLabelText('Description'), 'Deploys')
    await user.click(form.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Endpoint saved')).toBeTruthy()
    expect(seen.find((request) => request.method === 'PATCH')).toMatchObject({
      path: `/api/v1/webhooks/${endpoint.id}`,
      body: { url: endpoint.url, description: 'Deploys', events: ['prompt.created'] },
    })
  })

  it('deletes only after the confirmation', async () => {
    const seen = listed()
    const { user } = render(<EndpointList teamId={null} allowed={() => true} />)
    await user.click(await screen.findByRole('button', { name: `Delete: ${endpoint.url}` }))
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete this endpoint?' }))
    expect(
      confirm.getByText(`${endpoint.url} receives no more events, and its delivery log is deleted.`),
    ).toBeTruthy()
    expect(seen.some((request) => request.method === 'DELETE')).toBe(false)
    await user.click(confirm.getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Endpoint deleted')).toBeTruthy()
    expect(seen.find((request) => request.method === 'DELETE')?.path).toBe(`/api/v1/webhooks/${endpoint.id}`)
  })
})
