import { type RefObject, useEffect, useRef } from 'react'

/**
 * Calls `onVisible` whenever the returned element scrolls into view (inside `root`, or the
 * viewport): the sentinel at the end of a list that loads the next page.
 */
export function useOnVisible<T extends Element>(
  onVisible: () => void,
  options: { enabled: boolean; root?: RefObject<Element | null>; margin?: string },
) {
  const ref = useRef<T>(null)
  const callback = useRef(onVisible)
  callback.current = onVisible
  const { enabled, root, margin = '200px' } = options
  useEffect(() => {
    const element = ref.current
    if (!enabled || !element || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current()
      },
      { root: root?.current ?? null, rootMargin: margin },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [enabled, root, margin])
  return ref
}
