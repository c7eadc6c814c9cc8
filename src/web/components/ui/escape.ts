/**
 * Escape belongs to the dialog the user is in. Radix lets only the newest layer hear it, and a
 * toast that opened while a dialog was up is newer than the dialog, so it would take the first
 * Escape for itself. Instead the dialogs on screen register how to close them, and the toast passes
 * an Escape on to the newest one (unless the key was pressed in the toast itself).
 */
const openDialogs: (() => void)[] = []

/** Registers an open dialog's way to close; answers the function that unregisters it. */
export function registerOpenDialog(close: () => void): () => void {
  openDialogs.push(close)
  return () => {
    openDialogs.splice(openDialogs.indexOf(close), 1)
  }
}

/** For a toast's Escape: with a dialog open, closes the newest dialog and keeps the toast. */
export function passEscapeToDialog(event: KeyboardEvent) {
  const close = openDialogs.at(-1)
  if (!close) return
  event.preventDefault()
  close()
}
