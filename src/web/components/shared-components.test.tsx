import { screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../lib/api.ts'
import { render } from '../testing/render.tsx'
import { ConfirmAction } from './confirm-action.tsx'
import { DataTable } from './data-table.tsx'
import { DialogSubmitFooter, EditDialog } from './edit-dialog.tsx'

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

/** A form whose save ends when `saved` settles, then closes its dialog. */
function SlowForm({ close, saved }: { close: () => void; saved: Promise<void> }) {
  const [pending, setPending] = useState(false)
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        setPending(true)
        void saved.then(close)
      }}
    >
      <DialogSubmitFooter label="Save" pendingLabel="Saving…" pending={pending} />
    </form>
  )
}

describe('EditDialog and DialogSubmitFooter', () => {
  it('opens from a button named after what it edits, says Saving… while it saves, then closes', async () => {
    let finish = () => {}
    const saved = new Promise<void>((resolve) => {
      finish = resolve
    })
    const { user } = render(
      <EditDialog label="Edit" subject="OpenAI" title="Edit provider" description="Change its key.">
        {(close) => <SlowForm close={close} saved={saved} />}
      </EditDialog>,
    )
    expect(screen.queryByRole('dialog')).toBeNull()
    const button = screen.getByRole('button', { name: 'Edit: OpenAI' })
    expect(button.textContent).toBe('Edit')
    await user.click(button)
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit provider' }))
    expect(dialog.getByText('Change its key.')).toBeTruthy()
    await user.click(dialog.getByRole('button', { name: 'Save' }))
    const pending = dialog.getByRole('button', { name: 'Saving…' }) as HTMLButtonElement
    expect(pending.disabled).toBe(true)
    expect(pending.type).toBe('submit')
    finish()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
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
