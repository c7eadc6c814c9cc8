import { useCallback, useEffect, useRef, useState } from 'react'
import { COPIED_INDICATOR_MS } from '../../domain/constants.ts'

/** Copies text: the Clipboard API first, then the selection fallback for older or insecure contexts. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // fall through to the fallback
  }
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
  const copy = useCallback(async (text: string) => {
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
