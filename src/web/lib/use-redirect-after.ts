import { useEffect } from 'react'
import { useNavigate } from 'react-router'

/**
 * Once `to` is set, replaces the page with it after `delayMs` (the spec's pauses on success and
 * hand-over screens); leaving the page earlier cancels it.
 */
export function useRedirectAfter(to: string | null, delayMs: number) {
  const navigate = useNavigate()
  useEffect(() => {
    if (to === null) return
    const timer = setTimeout(() => navigate(to, { replace: true }), delayMs)
    return () => clearTimeout(timer)
  }, [to, delayMs, navigate])
}
