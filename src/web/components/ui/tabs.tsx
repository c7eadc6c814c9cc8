import { Tabs as TabsPrimitive } from 'radix-ui'
import type { ComponentProps, KeyboardEvent } from 'react'
import { cn } from '../../lib/cn.ts'

export const Tabs = TabsPrimitive.Root
export const TabsContent = TabsPrimitive.Content

type Step = 'next' | 'prev' | 'first' | 'last'

/** The keys of the WAI-ARIA tabs pattern, as Radix reads them (PageUp/PageDown as Home/End). */
function stepOf(key: string, vertical: boolean, rtl: boolean): Step | undefined {
  if (key === 'Home' || key === 'PageUp') return 'first'
  if (key === 'End' || key === 'PageDown') return 'last'
  if (vertical) return key === 'ArrowDown' ? 'next' : key === 'ArrowUp' ? 'prev' : undefined
  if (key === 'ArrowRight') return rtl ? 'prev' : 'next'
  if (key === 'ArrowLeft') return rtl ? 'next' : 'prev'
  return undefined
}

/**
 * Moves the focus to the tab a key asks for, at once. Radix's roving focus moves it on a timer
 * after the key (setTimeout), so a key handled before that timer runs (pressed quickly, held down,
 * or queued behind the render of the panel the previous key activated: input runs before timers)
 * acts on the tab still focused, and a press is lost. Handled here in the capture phase and
 * default-prevented, Radix's own handler skips the key; its focus handler still selects the tab
 * (automatic activation) and makes it the one tab stop.
 */
function focusTabNow(event: KeyboardEvent<HTMLDivElement>, loop: boolean) {
  const list = event.currentTarget
  const from = event.target
  if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || event.shiftKey) return
  if (!(from instanceof HTMLElement) || from.getAttribute('role') !== 'tab') return
  const vertical = list.getAttribute('aria-orientation') === 'vertical'
  const step = stepOf(event.key, vertical, getComputedStyle(list).direction === 'rtl')
  if (!step) return
  const tabs = Array.from(list.querySelectorAll<HTMLElement>('[role="tab"]:not([disabled])')).filter(
    (tab) => tab.closest('[role="tablist"]') === list,
  )
  const at = tabs.indexOf(from)
  if (at < 0) return
  const moved = step === 'next' ? at + 1 : step === 'prev' ? at - 1 : step === 'first' ? 0 : tabs.length - 1
  const index = loop ? (moved + tabs.length) % tabs.length : Math.min(Math.max(moved, 0), tabs.length - 1)
  event.preventDefault()
  tabs[index]?.focus()
}

export function TabsList({
  className,
  loop = true,
  onKeyDownCapture,
  ...props
}: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn('inline-flex items-center gap-1 rounded-lg bg-muted p-1', className)}
      loop={loop}
      onKeyDownCapture={(event) => {
        onKeyDownCapture?.(event)
        focusTabNow(event, loop)
      }}
      {...props}
    />
  )
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        'inline-flex cursor-pointer items-center gap-1.5 rounded-md px-3 py-1 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-xs',
        className,
      )}
      {...props}
    />
  )
}
