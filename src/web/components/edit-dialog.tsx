import { Pencil } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { Button } from './ui/button.tsx'
import { Dialog, DialogContent, DialogFooter } from './ui/dialog.tsx'

/**
 * A list row's Edit button and the dialog it opens (a model provider, a webhook endpoint). The
 * button's accessible name says what it edits ("Edit: OpenAI"); the form inside gets `close`, for
 * when it has saved.
 */
export function EditDialog({
  label,
  subject,
  title,
  description,
  children,
}: {
  /** The button's text ("Edit"). */
  label: string
  /** What the row is called, after the label in the button's accessible name. */
  subject: string
  title: string
  description?: string
  children: (close: () => void) => ReactNode
}) {
  const [open, setOpen] = useState(false)
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} aria-label={`${label}: ${subject}`}>
        <Pencil aria-hidden />
        {label}
      </Button>
      <DialogContent title={title} description={description}>
        {children(() => setOpen(false))}
      </DialogContent>
    </Dialog>
  )
}

/**
 * The footer of a dialog's form: its submit button, disabled and saying `pendingLabel` ("Saving…")
 * while the form is being submitted.
 */
export function DialogSubmitFooter({
  label,
  pendingLabel,
  pending,
}: {
  label: string
  pendingLabel: string
  pending: boolean
}) {
  return (
    <DialogFooter>
      <Button type="submit" disabled={pending}>
        {pending ? pendingLabel : label}
      </Button>
    </DialogFooter>
  )
}
