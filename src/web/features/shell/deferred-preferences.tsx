import { type KeyboardEvent, lazy, Suspense, useState } from 'react'
import { LanguageButton, ThemeButton } from './preference-buttons.tsx'

type Which = 'language' | 'theme'

const loadMenus = () => import('./preferences-menu.tsx')
const PreferenceSwitches = lazy(async () => ({ default: (await loadMenus()).PreferenceSwitches }))

/**
 * The sign-in pages' language and theme switches. They start as their two buttons; the menus
 * (Radix, with their positioning and focus code) load when the pointer comes near or a button is
 * used, and then open as the button asked. A first visit that only signs in never downloads them.
 */
export function DeferredPreferenceSwitches() {
  const [open, setOpen] = useState<Which | null>(null)
  const standIns = (
    <>
      <LanguageButton {...standInProps('language', setOpen)} />
      <ThemeButton {...standInProps('theme', setOpen)} />
    </>
  )
  if (!open) return standIns
  return (
    <Suspense fallback={standIns}>
      <PreferenceSwitches open={open} />
    </Suspense>
  )
}

/** A stand-in behaves like the menu button it replaces: click, Enter, Space or Arrow Down open it. */
function standInProps(which: Which, open: (which: Which) => void) {
  return {
    'aria-haspopup': 'menu' as const,
    'aria-expanded': false,
    onPointerEnter: () => void loadMenus(),
    onFocus: () => void loadMenus(),
    onClick: () => open(which),
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'ArrowDown') {
        event.preventDefault()
        open(which)
      }
    },
  }
}
