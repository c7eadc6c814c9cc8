import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ApiKey } from '../../../domain/api-keys.ts'
import { errorAnswer, render, stubServer } from '../../testing/render.tsx'
import { CreateKeyDialog, KeyList } from './index.ts'

const key: ApiKey = {
  id: '5d0c1f5e-9a8b-4c7d-8e6f-5a4b3c2d1e0f',
  name: 'Production server',
  publicKey: 'pk-pf-1234',
  secretHint: 'sk-pf-…wxyz',
  scope: 'read',
  teamId: null,
  createdByUserId: 'user-1',
  createdByEmail: 'ada@example.com',
  createdAt: '2026-11-01T00:00:00.000Z',
  lastUsedAt: null,
}

async function openCreateDialog() {
  const rendered = render(<CreateKeyDialog teamId="7e1d2c3b-4a5f-4e6d-9c8b-7a6f5e4d3c2b" />)
  await rendered.user.click(screen.getByRole('button', { name: 'Create key' }))
  return { ...rendered, dialog: within(await screen.findByRole('dialog', { name: 'Create an API key' })) }
}

describe('creating an API key', () => {
  it('needs a name of at most 100 characters before it asks the server', async () => {
    const seen = stubServer(() => undefined)
    const { user, dialog } = await openCreateDialog()
    await user.click(dialog.getByRole('button', { name: 'Create key' }))
    expect(await dialog.findByText('Name is required')).toBeTruthy()
    await user.type(dialog.getByLabelText('Name'), 'x'.repeat(101))
    await user.click(dialog.getByRole('button', { name: 'Create key' }))
    expect(await dialog.findByText('Name must be at most 100 characters')).toBeTruthy()
    expect(seen).toEqual([])
  })

  it('shows the secret key this once, with the environment to paste, and forgets it on close', async () => {
    const seen = stubServer(() => ({ body: { ...key, scope: 'read_write', secretKey: 'sk-pf-secret-wxyz' } }))
    const { user, dialog } = await openCreateDialog()
    await user.type(dialog.getByLabelText('Name'), 'Production server')
    await user.selectOptions(dialog.getByLabelText('Scope'), 'Read and write')
    await user.click(dialog.getByRole('button', { name: 'Create key' }))
    expect((await dialog.findByRole('status')).textContent).toBe(
      'Copy the secret key now: it will not be shown again.',
    )
    expect((dialog.getByLabelText('Secret key') as HTMLInputElement).value).toBe('sk-pf-secret-wxyz')
    expect((dialog.getByLabelText('Public key') as HTMLInputElement).value).toBe('pk-pf-1234')
    expect(dialog.getAllByText(/LANGFUSE_SECRET_KEY=sk-pf-secret-wxyz/)).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/api-keys',
      body: {
        name: 'Production server',
        scope: 'read_write',
        teamId: '7e1d2c3b-4a5f-4e6d-9c8b-7a6f5e4d3c2b',
      },
    })
    await user.click(dialog.getByRole('button', { name: 'Done' }))
    // Opened again, the dialog asks for a new key: the secret is gone.
    await user.click(screen.getByRole('button', { name: 'Create key' }))
    const again = within(await screen.findByRole('dialog', { name: 'Create an API key' }))
    expect(again.queryByLabelText('Secret key')).toBeNull()
    expect((again.getByLabelText('Name') as HTMLInputElement).value).toBe('')
  })

  it("says why the server refused (the space's key limit)", async () => {
    stubServer(() => errorAnswer(409, 'conflict', 'This space already has 20 API keys; revoke one first'))
    const { user, dialog } = await openCreateDialog()
    await user.type(dialog.getByLabelText('Name'), 'One too many')
    await user.click(dialog.getByRole('button', { name: 'Create key' }))
    expect(await screen.findByText('This space already has 20 API keys; revoke one first')).toBeTruthy()
    expect(screen.getByText('The key could not be created')).toBeTruthy()
    expect(dialog.queryByLabelText('Secret key')).toBeNull()
  })
})

describe('the key list', () => {
  it('shows a key by its hint, never its secret, and revokes it only after the confirmation', async () => {
    const seen = stubServer((request) => {
      if (request.method === 'GET') return { body: { items: [key] } }
      if (request.method === 'DELETE') return { status: 204 }
      return undefined
    })
    const { user } = render(<KeyList teamId={null} />)
    const item = within(await screen.findByRole('listitem', { name: 'Production server' }))
    expect(item.getByText('pk-pf-1234 · sk-pf-…wxyz')).toBeTruthy()
    expect(item.getByText('Never used', { exact: false })).toBeTruthy()
    await user.click(item.getByRole('button', { name: 'Revoke: Production server' }))
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Revoke “Production server”?' }))
    expect(seen.some((request) => request.method === 'DELETE')).toBe(false)
    await user.click(confirm.getByRole('button', { name: 'Revoke' }))
    expect(await screen.findByText('Key revoked')).toBeTruthy()
    expect(seen.find((request) => request.method === 'DELETE')?.path).toBe(`/api/v1/api-keys/${key.id}`)
  })
})
