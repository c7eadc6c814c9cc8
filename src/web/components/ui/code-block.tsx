import type { ComponentProps } from 'react'
import { cn } from '../../lib/cn.ts'

/**
 * Preformatted text (a prompt's body, a mail, raw JSON) that may scroll. It is a named region in
 * the tab order, so keyboard users can scroll it too (WCAG 2.1.1; axe: scrollable-region-focusable).
 * `label` says what it holds, e.g. 'Version 2'.
 */
export function CodeBlock({ label, className, children }: ComponentProps<'pre'> & { label: string }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className={cn(
        'overflow-auto rounded-lg bg-muted p-4 font-mono text-[13px] leading-relaxed break-words',
        className,
      )}
    >
      {/* The block's font (set above, or by the caller) applies to the text. */}
      <pre className="whitespace-pre-wrap [font:inherit]">{children}</pre>
    </section>
  )
}
