import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react'
import { debugLog } from '../../lib/debug-log.ts'

/** The spec's toast rules: one visible, a new one replaces it, removal long after closing. */
const TOAST_LIMIT = 1
const TOAST_REMOVE_DELAY_MS = 1_000_000

export type ToastTone = 'default' | 'success' | 'error'

interface ToastItem {
  id: string
  open: boolean
  title: ReactNode
  description?: ReactNode
  tone: ToastTone
}

let items: ToastItem[] = []
let counter = 0
const listeners = new Set<() => void>()

function emit(next: ToastItem[]) {
  items = next
  for (const listener of listeners) listener()
}

function nextId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER
  return String(counter)
}

/** The words of a toast's title or description, when they are words (not elements). */
function plain(node: ReactNode): string {
  return typeof node === 'string' || typeof node === 'number' ? String(node) : ''
}

export function toast(input: { title: ReactNode; description?: ReactNode; tone?: ToastTone }): string {
  const id = nextId()
  if (input.tone === 'error') {
    const description = plain(input.description)
    debugLog.error(`Toast: ${plain(input.title)}${description ? ` (${description})` : ''}`)
  }
  emit(
    [
      { id, open: true, tone: input.tone ?? 'default', title: input.title, description: input.description },
      ...items,
    ].slice(0, TOAST_LIMIT),
  )
  return id
}

export function dismissToast(id?: string) {
  emit(items.map((item) => (id === undefined || item.id === id ? { ...item, open: false } : item)))
  setTimeout(() => removeToast(id), TOAST_REMOVE_DELAY_MS)
}

export function removeToast(id?: string) {
  emit(id === undefined ? [] : items.filter((item) => item.id !== id))
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => items,
  )
}

const Toaster = lazy(async () => ({ default: (await import('./toaster.tsx')).Toaster }))
let toasterWanted = false

/**
 * Where toasts show. The toaster (Radix) loads with the first toast, so that pages which never
 * show one (the sign-in pages) do not download it; once loaded it stays.
 */
export function ToastHost() {
  const toasts = useToasts()
  if (toasts.length > 0) toasterWanted = true
  if (!toasterWanted) return null
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  )
}
