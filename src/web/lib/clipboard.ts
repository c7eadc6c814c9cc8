import { useCallback, useEffect, useRef, useState } from 'react'
import { COPIED_INDICATOR_MS } from '../../domain/constants.ts'

/**
 * Copies text: the Clipboard API first, then the selection fallback for older or insecure contexts.
 * Text that must be fetched first is handed to the clipboard as a promise (ClipboardItem), so the
 * browser still counts the copy as part of the click that asked for it.
 */
export async function copyText(pending: string | Promise<string>): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      if (typeof pending !== 'string' && typeof ClipboardItem !== 'undefined') {
        const blob = pending.then((text) => new Blob([text], { type: 'text/plain' }))
        await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob })])
        return true
      }
      await navigator.clipboard.writeText(await pending)
      return true
    }
  } catch {
    // fall through to the fallback
  }
  const text = await pending
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.appendChild(area)
  area.select()
  try {
    return document.execCommand('copy')
  } catch {
    return false
  } finally {
    area.remove()
  }
}

/**
 * `copy(text)` copies and flags `copied` for 2 s ('Copied!'); resolves false when both ways failed,
 * so the caller can show the spec's failure alert.
 */
export function useCopy() {
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const copy = useCallback(async (text: string | Promise<string>) => {
    const ok = await copyText(text)
    if (ok) {
      setCopied(true)
      clearTimeout(timer.current)
      timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS)
    }
    return ok
  }, [])
  return { copy, copied }
}
