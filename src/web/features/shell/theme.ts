import { useEffect, useSyncExternalStore } from 'react'

export type ThemePreference = 'system' | 'light' | 'dark'
const STORAGE_KEY = 'promptfolio.theme'
const listeners = new Set<() => void>()
const media = window.matchMedia('(prefers-color-scheme: dark)')

function read(): ThemePreference {
  try {
    const saved = localStorage.getItem(STORAGE_KEY)
    if (saved === 'light' || saved === 'dark' || saved === 'system') return saved
  } catch {
    // storage blocked: system default
  }
  return 'system'
}

let preference = read()

/**
 * Puts the theme's one class on <html>. The colours are variables there (styles/app.css), so a
 * switch restyles the page once. Every control with `transition-colors` used to start a fade per
 * colour on top of that (a restyle per frame for 150 ms, and events through React's root): three
 * times the style time on a long list. `theme-switching` turns those transitions off for the one
 * style update forced here (the rows of long lists have their own rule, app.css says why).
 */
function apply() {
  const dark = preference === 'dark' || (preference === 'system' && media.matches)
  const root = document.documentElement
  if (root.classList.contains('dark') === dark) return
  root.classList.add('theme-switching')
  try {
    root.classList.toggle('dark', dark)
    // Reading a computed style makes the browser restyle the page now, with the transitions still off.
    void getComputedStyle(root).color
  } finally {
    root.classList.remove('theme-switching')
  }
}

/** Applies the theme at once and remembers it in this browser (public/boot.js reads it on load). */
export function setTheme(next: ThemePreference) {
  preference = next
  try {
    localStorage.setItem(STORAGE_KEY, next)
  } catch {
    // not persisted
  }
  apply()
  for (const listener of listeners) listener()
}

export function useTheme(): { preference: ThemePreference; dark: boolean } {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => `${preference}:${media.matches}`,
  )
  const [pref, systemDark] = current.split(':') as [ThemePreference, string]
  const dark = pref === 'dark' || (pref === 'system' && systemDark === 'true')
  // Chromium re-evaluates a media query when `matches` is read and then sends no change event for
  // what that read already saw: a render between the system's switch and the next frame (data
  // arriving as a page starts) took the event from `followTheme`, and the page kept the old theme
  // while this hook showed the new one. So the render that sees a switch applies it.
  useEffect(() => {
    if (document.documentElement.classList.contains('dark') !== dark) apply()
  }, [dark])
  return { preference: pref, dark }
}

/** Applies the saved theme and follows the system's while it is 'system'; once, as the app starts (main.tsx). */
export function followTheme() {
  apply()
  media.addEventListener('change', () => {
    apply()
    for (const listener of listeners) listener()
  })
}
