import { useSyncExternalStore } from 'react'

/**
 * The modal dialogs on screen, newest last. Each registers how to close it and the element inside
 * it where toasts are shown while it is open:
 *
 * - A modal dialog hides the rest of the page from assistive technology (aria-hidden on everything
 *   outside it). A toast shown elsewhere would be invisible to a screen reader and its close button
 *   unreachable, so the toasts' viewport moves into the newest dialog (`useToastHost`) and back out
 *   when it closes.
 * - Escape belongs to the dialog the user is in. Radix lets only the newest layer hear it, and a
 *   toast that opened while a dialog was up is newer than the dialog, so it would take the first
 *   Escape for itself. Instead the toast passes an Escape on to the newest dialog
 *   (`passEscapeToDialog`), unless the key was pressed in the toast itself.
 */
interface DialogLayer {
  close: () => void
  toastHost: HTMLElement
}

let layers: DialogLayer[] = []
const listeners = new Set<() => void>()

/** Registers an open dialog; answers the function that unregisters it. */
export function registerDialogLayer(layer: DialogLayer): () => void {
  layers = [...layers, layer]
  for (const listener of listeners) listener()
  return () => {
    layers = layers.filter((other) => other !== layer)
    for (const listener of listeners) listener()
  }
}

/** Where the toasts' viewport belongs now: inside the newest open dialog, or null (the page). */
export function useToastHost(): HTMLElement | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => layers.at(-1)?.toastHost ?? null,
  )
}

/**
 * The element that last had the focus outside a menu. A dialog opened without a Radix trigger (by
 * a button that sets state, or from a menu item) gives the focus back to it when it closes; Radix
 * alone would drop it on the page's body. Menu items are passed over: when a menu item opens a
 * dialog, the focus belongs back on the menu's button.
 */
let lastFocused: HTMLElement | null = null
document.addEventListener('focusin', (event) => {
  if (event.target instanceof HTMLElement && !event.target.closest('[role="menu"]'))
    lastFocused = event.target
})

export function lastFocusedElement(): HTMLElement | null {
  return lastFocused
}

/** For a toast's Escape: with a dialog open, closes the newest dialog and keeps the toast. */
export function passEscapeToDialog(event: KeyboardEvent) {
  const layer = layers.at(-1)
  if (!layer) return
  event.preventDefault()
  layer.close()
}
