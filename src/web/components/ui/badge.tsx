import { X } from 'lucide-react'
import type { ComponentProps, ReactNode } from 'react'
import { cn } from '../../lib/cn.ts'

const variants = {
  default: 'bg-muted text-foreground',
  primary: 'bg-accent text-accent-foreground',
  outline: 'border border-border text-muted-foreground',
  success: 'bg-success/15 text-success',
  warning: 'bg-warning/20 text-foreground',
  destructive: 'bg-destructive/15 text-destructive',
} as const

export function Badge({
  className,
  variant = 'default',
  ...props
}: ComponentProps<'span'> & { variant?: keyof typeof variants }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap [&_svg]:size-3',
        variants[variant],
        className,
      )}
      {...props}
    />
  )
}

/** A chip with its own remove button (a tag in a form, an active filter). */
export function RemovableBadge({
  children,
  removeLabel,
  onRemove,
}: {
  children: ReactNode
  /** What the remove button says to screen readers, e.g. 'Remove tag x'. */
  removeLabel: string
  onRemove: () => void
}) {
  return (
    <Badge variant="primary" className="gap-0.5 py-0.5 pr-0.5 pl-2">
      {children}
      <button
        type="button"
        className="cursor-pointer rounded-full p-0.5 hover:bg-primary/15"
        aria-label={removeLabel}
        onClick={onRemove}
      >
        <X aria-hidden />
      </button>
    </Badge>
  )
}
