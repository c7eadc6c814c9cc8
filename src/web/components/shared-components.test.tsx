import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../lib/api.ts'
import { render } from '../testing/render.tsx'
import { ConfirmAction } from './confirm-action.tsx'
import { DataTable } from './data-table.tsx'

const texts = {
  action: 'Delete',
  actionLabel: 'Delete: Production',
  title: 'Delete this key?',
  text: 'Production stops working.',
  done: 'Key deleted',
  failed: 'The key could not be deleted',
}

/** A mutation that settles as told, remembering what it was called with. */
function action(outcome: 'ok' | ApiError) {
  const mutate = vi.fn(
    (_: string, callbacks: { onSuccess: () => void; onError: (error: unknown) => void }) =>
      outcome === 'ok' ? callbacks.onSuccess() : callbacks.onError(outcome),
  )
  return { mutate, isPending: false }
}

describe('ConfirmAction', () => {
  it('runs only after the confirmation, with its variables, then says it is done', async () => {
    const remove = action('ok')
    const onDone = vi.fn()
    const { user } = render(<ConfirmAction texts={texts} action={remove} variables="key-1" onDone={onDone} />)
    await user.click(screen.getByRole('button', { name: 'Delete: Production' }))
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Delete this key?' }))
    expect(dialog.getByText('Production stops working.')).toBeTruthy()
    expect(remove.mutate).not.toHaveBeenCalled()
    await user.click(dialog.getByRole('button', { name: 'Delete' }))
    expect(remove.mutate).toHaveBeenCalledWith('key-1', expect.anything())
    expect(await screen.findByText('Key deleted')).toBeTruthy()
    expect(onDone).toHaveBeenCalledOnce()
    expect(screen.queryByRole('alertdialog')).toBeNull()
  })

  it('does nothing on Cancel', async () => {
    const remove = action('ok')
    const { user } = render(<ConfirmAction texts={texts} action={remove} variables="key-1" />)
    await user.click(screen.getByRole('button', { name: 'Delete: Production' }))
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }))
    expect(remove.mutate).not.toHaveBeenCalled()
    expect(screen.queryByRole('alertdialog')).toBeNull()
  })

  it("says it failed, with the server's reason", async () => {
    const remove = action(new ApiError(403, 'forbidden', 'Only team admins delete keys'))
    const onDone = vi.fn()
    const { user } = render(<ConfirmAction texts={texts} action={remove} variables="key-1" onDone={onDone} />)
    await user.click(screen.getByRole('button', { name: 'Delete: Production' }))
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('The key could not be deleted')).toBeTruthy()
    expect(screen.getByText('Only team admins delete keys')).toBeTruthy()
    expect(onDone).not.toHaveBeenCalled()
  })
})

describe('DataTable', () => {
  const rows = [
    { id: 'a', name: 'Alpha', count: 3 },
    { id: 'b', name: 'Beta', count: 12 },
  ]

  it('names the table, scopes its headers, heads each row and leaves out columns shown sometimes', () => {
    render(
      <DataTable
        caption="Teams"
        rows={rows}
        rowKey={(row) => row.id}
        columns={[
          { header: 'Team', rowHeader: true, cell: (row) => row.name },
          { header: 'Prompts', numeric: true, cell: (row) => row.count },
          false,
          {
            header: 'Actions',
            hideHeader: true,
            cell: (row) => <button type="button">Open {row.name}</button>,
          },
        ]}
      />,
    )
    const table = screen.getByRole('table', { name: 'Teams' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => [header.textContent, header.getAttribute('scope')]),
    ).toEqual([
      ['Team', 'col'],
      ['Prompts', 'col'],
      ['Actions', 'col'],
    ])
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((header) => header.textContent),
    ).toEqual(['Alpha', 'Beta'])
    const beta = within(table).getByRole('row', { name: /Beta/ })
    expect(
      within(beta)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['12', 'Open Beta'])
  })
})
