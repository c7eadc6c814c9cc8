import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { PromptDetail, PromptVersion } from '../../../domain/prompts.ts'
import { errorAnswer, render, type Server, stubServer } from '../../testing/render.tsx'
import { LabelsCard } from './labels.tsx'
import { ProtectedLabelsCard } from './protected-labels.tsx'

const promptId = '33333333-3333-4333-8333-333333333333'
const teamId = '44444444-4444-4444-8444-444444444444'

function version(versionNumber: number, labels: string[]): PromptVersion {
  return {
    id: `00000000-0000-4000-8000-00000000000${versionNumber}`,
    promptId,
    versionNumber,
    body: `Body ${versionNumber}`,
    changelog: null,
    createdByUserId: 'user-1',
    createdAt: '2026-11-01T00:00:00.000Z',
    config: {},
    variables: [],
    labels,
  } as PromptVersion
}
const versions = [version(2, ['latest']), version(1, ['production'])]
const moveEvent = {
  id: '55555555-5555-4555-8555-555555555555',
  label: 'production',
  fromVersion: null,
  toVersion: 1,
  actorUserId: 'user-1',
  actorEmail: 'ada@example.com',
  apiKeyName: null,
  createdAt: '2026-11-01T00:00:00.000Z',
}

function prompt(setCurrent: boolean): PromptDetail {
  return { id: promptId, name: 'support/triage', teamId, access: { setCurrent } } as unknown as PromptDetail
}

/** The prompt's versions and label history, and `write` for what changes them. */
function serve(write: Server = () => undefined) {
  return stubServer((request) => {
    if (request.path.endsWith('/versions')) return { body: { items: versions, nextCursor: null } }
    if (request.path.endsWith('/label-history')) return { body: { items: [moveEvent], nextCursor: null } }
    return write(request)
  })
}

describe('the labels card', () => {
  it('moves a label (trimmed) to the chosen version', async () => {
    const seen = serve((request) => (request.method === 'PUT' ? { body: { ok: true } } : undefined))
    const { user } = render(<LabelsCard prompt={prompt(true)} />)
    const card = within(await screen.findByRole('region', { name: 'Labels' }))
    const versionSelect = await card.findByLabelText('Version')
    expect(
      within(versionSelect)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['v2 (latest)', 'v1 (production)'])
    await user.clear(card.getByLabelText('Label'))
    expect(card.getByRole('button', { name: 'Move label' })).toHaveProperty('disabled', true)
    await user.type(card.getByLabelText('Label'), ' staging ')
    await user.selectOptions(versionSelect, 'v1 (production)')
    await user.click(card.getByRole('button', { name: 'Move label' }))
    expect(await screen.findByText('Label “staging” is now on version 1')).toBeTruthy()
    expect(seen.find((request) => request.method !== 'GET')).toMatchObject({
      method: 'PUT',
      path: `/api/v1/prompts/${promptId}/labels`,
      body: { label: 'staging', versionId: versions[1]!.id },
    })
  })

  it("shows the server's refusal of a protected label", async () => {
    serve(() => errorAnswer(403, 'forbidden', 'Only team admins move the label “production”'))
    const { user } = render(<LabelsCard prompt={prompt(true)} />)
    const card = within(await screen.findByRole('region', { name: 'Labels' }))
    await card.findByLabelText('Version')
    await user.clear(card.getByLabelText('Label'))
    await user.type(card.getByLabelText('Label'), 'production')
    await user.click(card.getByRole('button', { name: 'Move label' }))
    expect(await screen.findByText('Only team admins move the label “production”')).toBeTruthy()
  })

  it('lists the history with who moved what, and reverts a move', async () => {
    const seen = serve((request) => (request.method === 'POST' ? { body: { ok: true } } : undefined))
    const { user } = render(<LabelsCard prompt={prompt(true)} />)
    const history = within(await screen.findByRole('region', { name: 'Label history' }))
    expect((await history.findByText('production: none → v1')).textContent).toBe('production: none → v1')
    expect(history.getByText(/by ada@example\.com/)).toBeTruthy()
    await user.click(history.getByRole('button', { name: 'Revert: production: none → v1' }))
    expect(await screen.findByText('Label change reverted')).toBeTruthy()
    expect(seen.find((request) => request.method === 'POST')?.path).toBe(
      `/api/v1/prompts/${promptId}/label-history/${moveEvent.id}/revert`,
    )
  })

  it('offers neither moving nor reverting to whoever may not set the current version', async () => {
    serve()
    render(<LabelsCard prompt={prompt(false)} />)
    const history = within(await screen.findByRole('region', { name: 'Label history' }))
    await history.findByText('production: none → v1')
    expect(screen.queryByRole('button', { name: 'Move label' })).toBeNull()
    expect(history.queryByRole('button', { name: /^Revert/ })).toBeNull()
  })
})

describe("a team's protected labels", () => {
  /** The team's protected labels as the server keeps them: a PUT replaces them. */
  const protectedServer = (initial: string[]) => {
    let labels = initial
    return stubServer((request) => {
      if (request.method === 'PUT') labels = (request.body as { labels: string[] }).labels
      return { body: { items: labels } }
    })
  }

  it('refuses "latest" and malformed labels before asking the server', async () => {
    const seen = protectedServer([])
    const { user } = render(<ProtectedLabelsCard teamId={teamId} editable />)
    const card = within(await screen.findByRole('region', { name: 'Protected labels' }))
    await user.type(card.getByLabelText('Protect a label'), 'latest')
    await user.click(card.getByRole('button', { name: 'Protect' }))
    expect(card.getByRole('alert').textContent).toBe(
      'The label "latest" is set automatically and cannot be moved',
    )
    await user.clear(card.getByLabelText('Protect a label'))
    await user.type(card.getByLabelText('Protect a label'), 'Prod Ready')
    await user.click(card.getByRole('button', { name: 'Protect' }))
    expect(card.getByRole('alert').textContent).toBe(
      'Labels are 1 to 36 lowercase letters, digits, "_", "-" or "."',
    )
    expect(seen.filter((request) => request.method !== 'GET')).toEqual([])
  })

  it('adds to and removes from the list the server keeps', async () => {
    const seen = protectedServer(['production'])
    const { user } = render(<ProtectedLabelsCard teamId={teamId} editable />)
    const card = within(await screen.findByRole('region', { name: 'Protected labels' }))
    await user.type(await card.findByLabelText('Protect a label'), 'staging')
    await user.click(card.getByRole('button', { name: 'Protect' }))
    expect(await screen.findByText('“staging” is now protected')).toBeTruthy()
    await user.click(card.getByRole('button', { name: 'Stop protecting production' }))
    expect(await screen.findByText('“production” is no longer protected')).toBeTruthy()
    expect(seen.filter((request) => request.method !== 'GET').map((request) => request.body)).toEqual([
      { labels: ['production', 'staging'] },
      { labels: ['staging'] },
    ])
  })

  it('shows members which labels are protected, without changing them', async () => {
    protectedServer(['production'])
    render(<ProtectedLabelsCard teamId={teamId} editable={false} />)
    const card = within(await screen.findByRole('region', { name: 'Protected labels' }))
    expect(await card.findByText('production')).toBeTruthy()
    expect(card.queryByRole('button', { name: /Stop protecting/ })).toBeNull()
    expect(card.getByText('Only team admins change which labels are protected.')).toBeTruthy()
  })
})
