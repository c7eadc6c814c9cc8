import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { PromptVersion } from '../../../domain/prompts.ts'
import { render, stubServer } from '../../testing/render.tsx'
import { DraftEditor } from './playground-column.tsx'
import type { Column } from './use-column.ts'

const promptId = '7f1e2d3c-4b5a-4968-8776-655443322110'
const current: PromptVersion = {
  id: '11111111-2222-4333-8444-555555555555',
  promptId,
  versionNumber: 1,
  body: 'Hello {{name}}',
  changelog: null,
  createdByUserId: 'user-1',
  createdAt: '2026-11-01T00:00:00.000Z',
  config: {},
  variables: [],
  labels: ['production', 'latest'],
}
const saved: PromptVersion = { ...current, id: '66666666-7777-4888-8999-000000000000', versionNumber: 2 }

/** A playground column holding an edited draft of the current version (what the editor shows). */
const editedColumn = {
  draft: { body: 'Hello there, {{name}}', config: '{}' },
  version: current,
  run: { state: { status: 'idle' } },
  errors: {},
  draftConfig: () => ({}),
  editDraft: () => {},
} as unknown as Column

function saveAnswering(currentAfter: PromptVersion) {
  const seen = stubServer((request) =>
    request.method === 'PATCH' && request.path === `/api/v1/prompts/${promptId}`
      ? { body: { id: promptId, currentVersion: currentAfter, versionCount: 2 } }
      : undefined,
  )
  const view = render(
    <DraftEditor column={editedColumn} type="text" promptId={promptId} current={current} canEdit />,
  )
  return { seen, ...view }
}

describe('saving a playground draft as a new version', () => {
  it('says it was saved when the new version became current', async () => {
    const { user, seen } = saveAnswering(saved)
    await user.click(screen.getByRole('button', { name: 'Save as new version' }))
    expect(await screen.findByText('Saved as a new version.')).toBeTruthy()
    expect(seen.map((request) => request.body)).toEqual([
      expect.objectContaining({ body: 'Hello there, {{name}}', baseVersionId: current.id }),
    ])
  })

  it('says the version waits for a team admin when the current version stayed (a protected production)', async () => {
    const { user } = saveAnswering(current)
    await user.click(screen.getByRole('button', { name: 'Save as new version' }))
    expect(
      await screen.findByText(
        'Saved as a new version. It is not the current version yet: this team protects “production”, so a team admin makes it current.',
      ),
    ).toBeTruthy()
    expect(screen.queryByText('Saved as a new version.')).toBeNull()
  })
})
