import { X } from 'lucide-react'
import { Toast as ToastPrimitive } from 'radix-ui'
import { useRef } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn.ts'
import { passEscapeToDialog, useToastHost } from './dialog-layers.ts'
import { dismissToast, type ToastTone, useToasts } from './toast.tsx'

/** The toasts of `toast()` (toast.tsx), on Radix's toast: loaded by `ToastHost` with the first one. */
const toneClass: Record<ToastTone, string> = {
  default: 'border-border',
  success: 'border-success/50',
  error: 'border-destructive/60',
}

export function Toaster() {
  const { t } = useTranslation('common')
  const toasts = useToasts()
  const viewport = useRef<HTMLOListElement>(null)
  // While a modal dialog is open the rest of the page is hidden from assistive technology: the
  // toasts are shown inside the dialog then (dialog-layers.ts).
  const host = useToastHost()
  const viewportElement = (
    <ToastPrimitive.Viewport
      ref={viewport}
      // Bottom on phones; from sm up at the top centre, under the header, where they cover no
      // row's buttons (Resend and Revoke sit at the right of the lists, where toasts used to be).
      className="fixed bottom-0 left-1/2 z-[60] m-0 flex w-full max-w-sm -translate-x-1/2 list-none flex-col gap-2 p-4 outline-none sm:top-14 sm:bottom-auto"
    />
  )
  return (
    <ToastPrimitive.Provider swipeDirection="right" duration={4500} label={t('notifications')}>
      {toasts.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          open={item.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id)
          }}
          // The first Escape closes the dialog the user is in (dialog-layers.ts), unless they are in the toast.
          onEscapeKeyDown={(event) => {
            if (!(event.target instanceof Node && viewport.current?.contains(event.target))) {
              passEscapeToDialog(event)
            }
          }}
          className={cn(
            'relative flex w-full items-start gap-3 rounded-lg border-l-4 border bg-card p-4 pr-10 shadow-lg data-[state=open]:animate-[pf-slide-up_160ms_ease-out]',
            toneClass[item.tone],
          )}
        >
          <div className="space-y-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{item.title}</ToastPrimitive.Title>
            {item.description && (
              <ToastPrimitive.Description className="text-sm text-muted-foreground">
                {item.description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            // Not just 'Close': over a dialog the toast sits next to the dialog's own close button.
            aria-label={t('closeNotification')}
            className="absolute top-2 right-2 rounded-md p-1 text-muted-foreground hover:bg-muted hover:text-foreground"
          >
            <X className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {host ? createPortal(viewportElement, host) : viewportElement}
    </ToastPrimitive.Provider>
  )
}
