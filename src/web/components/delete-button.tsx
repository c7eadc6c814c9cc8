import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { errorText } from '../lib/api.ts'
import { Button } from './ui/button.tsx'
import { ConfirmDialog } from './ui/dialog.tsx'
import { toast } from './ui/toast.tsx'

/** The texts of a delete button and its confirmation, in the caller's language. */
export interface DeleteTexts {
  /** The button's and the confirmation's label ("Delete"). */
  delete: string
  title: string
  /** The confirmation's text, naming what goes. */
  text: string
  deleted: string
  failed: string
}

/**
 * A settings card's Delete: asks first, then runs `remove` and says how it went. `name` tells a
 * screen reader which item's button this is.
 */
export function DeleteButton({
  name,
  texts,
  remove,
}: {
  name: string
  texts: DeleteTexts
  remove: {
    mutate: (
      variables: undefined,
      callbacks: { onSuccess: () => void; onError: (error: unknown) => void },
    ) => void
    isPending: boolean
  }
}) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={`${texts.delete}: ${name}`}
      >
        <Trash2 aria-hidden />
        {texts.delete}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={texts.title}
        description={texts.text}
        confirmLabel={texts.delete}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setOpen(false)
              toast({ title: texts.deleted, tone: 'success' })
            },
            onError: (error) => toast({ title: errorText(error, texts.failed), tone: 'error' }),
          })
        }
      />
    </>
  )
}
