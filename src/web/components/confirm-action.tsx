import { Trash2 } from 'lucide-react'
import { type ComponentProps, type ReactNode, useState } from 'react'
import { errorText } from '../lib/api.ts'
import { Button } from './ui/button.tsx'
import { ConfirmDialog } from './ui/dialog.tsx'
import { toast } from './ui/toast.tsx'

/** The texts of an action and its confirmation, in the caller's language. */
interface ConfirmTexts {
  /** The button's and the confirmation's label ("Delete"). */
  action: string
  /** What a screen reader hears for the button, naming the item ("Delete: Production"). */
  actionLabel: string
  title: string
  /** The confirmation's text, naming what goes. */
  text: string
  /** The toast once it is done; none when `onDone` says it otherwise (it leaves the page). */
  done?: string
  /** The error toast's title; the server's reason is its description. */
  failed: string
}

/** A mutation as TanStack Query's `useMutation` returns it. */
interface Action<V> {
  mutate: (variables: V, callbacks: { onSuccess: () => void; onError: (error: unknown) => void }) => void
  isPending: boolean
}

/**
 * A button that asks first (delete, revoke, remove, leave), then runs `action` with `variables`
 * and says how it went; the dialog closes either way. A destructive action unless told otherwise.
 */
export function ConfirmAction<V = undefined>({
  texts,
  action,
  variables,
  onDone,
  icon = <Trash2 aria-hidden />,
  iconOnly = false,
  variant = 'outline',
  size = iconOnly ? 'icon-sm' : 'sm',
  disabled,
  describedBy,
}: {
  texts: ConfirmTexts
  action: Action<V>
  onDone?: () => void
  icon?: ReactNode
  /** Only the icon shows; `texts.actionLabel` names the button. */
  iconOnly?: boolean
  variant?: ComponentProps<typeof Button>['variant']
  size?: ComponentProps<typeof Button>['size']
  disabled?: boolean
  /** The id of the text that says why the button is disabled. */
  describedBy?: string
} & (undefined extends V ? { variables?: V } : { variables: V })) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button
        variant={variant}
        size={size}
        disabled={disabled}
        aria-describedby={describedBy}
        onClick={() => setOpen(true)}
        aria-label={texts.actionLabel}
      >
        {icon}
        {!iconOnly && texts.action}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={texts.title}
        description={texts.text}
        confirmLabel={texts.action}
        pending={action.isPending}
        onConfirm={() =>
          action.mutate(variables as V, {
            onSuccess: () => {
              setOpen(false)
              if (texts.done) toast({ title: texts.done, tone: 'success' })
              onDone?.()
            },
            onError: (error) => {
              setOpen(false)
              toast({ title: texts.failed, description: errorText(error, '') || undefined, tone: 'error' })
            },
          })
        }
      />
    </>
  )
}
