import { X } from 'lucide-react'
import { AlertDialog as AlertDialogPrimitive, Dialog as DialogPrimitive } from 'radix-ui'
import { type ComponentProps, type ReactNode, type RefObject, useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn.ts'
import { Button } from './button.tsx'
import { lastFocusedElement, registerDialogLayer } from './dialog-layers.ts'

const overlay =
  'fixed inset-0 z-50 bg-black/40 backdrop-blur-[1px] data-[state=open]:animate-[pf-fade-in_120ms_ease-out]'
// Centred by margins, not a transform: a transformed panel would become the containing block of the
// (fixed) toasts shown inside it and clip them.
const panel =
  'fixed inset-0 z-50 m-auto flex h-fit max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg flex-col gap-4 overflow-y-auto rounded-xl border bg-card p-6 shadow-xl data-[state=open]:animate-[pf-pop-in_140ms_ease-out]'

export const Dialog = DialogPrimitive.Root
export const DialogTrigger = DialogPrimitive.Trigger
export const DialogClose = DialogPrimitive.Close

/**
 * Rendered inside a modal dialog's content, so only while the dialog is open: registers the dialog
 * (dialog-layers.ts), so that an Escape a toast above it receives closes the dialog instead, holds
 * the toasts shown meanwhile, where assistive technology still reaches them, and notes where the
 * focus was before the dialog took it.
 */
export function DialogLayer({
  close,
  returnFocus,
}: {
  close: () => void
  returnFocus: RefObject<HTMLElement | null>
}) {
  const latest = useRef(close)
  const toastHost = useRef<HTMLDivElement>(null)
  useEffect(() => {
    latest.current = close
  })
  useEffect(() => {
    // Runs before the dialog moves the focus in (a child's effect runs before its parent's); kept
    // across React's second run of effects in development.
    returnFocus.current ??= lastFocusedElement()
    return registerDialogLayer({ close: () => latest.current(), toastHost: toastHost.current! })
  }, [returnFocus])
  // `contents`: no box of its own, so the dialog's layout does not change (the toasts are fixed).
  return <div ref={toastHost} className="contents" />
}

/**
 * Gives the focus back to what had it before the dialog opened (see DialogLayer): for
 * `onCloseAutoFocus` of a dialog's content.
 */
export function useReturnFocus() {
  const returnFocus = useRef<HTMLElement | null>(null)
  const onCloseAutoFocus = (event: Event) => {
    const target = returnFocus.current
    returnFocus.current = null
    if (target?.isConnected) {
      event.preventDefault()
      target.focus()
    }
  }
  return { returnFocus, onCloseAutoFocus }
}

export function DialogContent({
  className,
  children,
  title,
  description,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { title: ReactNode; description?: ReactNode }) {
  const { t } = useTranslation('common')
  // The dialog may be uncontrolled (opened by a DialogTrigger): its close button closes it either way.
  const closeButton = useRef<HTMLButtonElement>(null)
  const { returnFocus, onCloseAutoFocus } = useReturnFocus()
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlay} />
      <DialogPrimitive.Content
        className={cn(panel, className)}
        {...(description ? {} : { 'aria-describedby': undefined })}
        onCloseAutoFocus={onCloseAutoFocus}
        {...props}
      >
        <div className="space-y-1 pr-6">
          <DialogPrimitive.Title className="text-lg font-semibold">{title}</DialogPrimitive.Title>
          {description && (
            <DialogPrimitive.Description className="text-sm text-muted-foreground">
              {description}
            </DialogPrimitive.Description>
          )}
        </div>
        {children}
        <DialogPrimitive.Close asChild>
          <Button
            ref={closeButton}
            variant="ghost"
            size="icon-sm"
            className="absolute top-3 right-3"
            aria-label={t('close')}
          >
            <X />
          </Button>
        </DialogPrimitive.Close>
        <DialogLayer close={() => closeButton.current?.click()} returnFocus={returnFocus} />
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  )
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />
  )
}

interface ConfirmDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  description: ReactNode
  confirmLabel: ReactNode
  cancelLabel?: ReactNode
  onConfirm: () => void
  pending?: boolean
  destructive?: boolean
}

/** A confirmation that must be answered (Cancel / confirm), e.g. before deleting. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  pending,
  destructive = true,
}: ConfirmDialogProps) {
  const { t } = useTranslation('common')
  const { returnFocus, onCloseAutoFocus } = useReturnFocus()
  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className={overlay} />
        <AlertDialogPrimitive.Content className={cn(panel, 'max-w-md')} onCloseAutoFocus={onCloseAutoFocus}>
          <div className="space-y-2">
            <AlertDialogPrimitive.Title className="text-lg font-semibold">{title}</AlertDialogPrimitive.Title>
            <AlertDialogPrimitive.Description className="text-sm text-muted-foreground">
              {description}
            </AlertDialogPrimitive.Description>
          </div>
          <DialogFooter>
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="outline" disabled={pending}>
                {cancelLabel ?? t('cancel')}
              </Button>
            </AlertDialogPrimitive.Cancel>
            <Button
              variant={destructive ? 'destructive' : 'primary'}
              disabled={pending}
              onClick={(event) => {
                event.preventDefault()
                onConfirm()
              }}
            >
              {confirmLabel}
            </Button>
          </DialogFooter>
          <DialogLayer close={() => onOpenChange(false)} returnFocus={returnFocus} />
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  )
}
