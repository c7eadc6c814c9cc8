import { Loader2 } from 'lucide-react'
import type { ComponentProps } from 'react'
import { cn } from '../../lib/cn.ts'

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />
}

/** A spinner with its text; `hideLabel` keeps the text for screen readers only. */
export function Spinner({
  className,
  label,
  hideLabel,
}: {
  className?: string
  label: string
  hideLabel?: boolean
}) {
  return (
    <span role="status" className="inline-flex items-center gap-2">
      <Loader2 aria-hidden className={cn('size-4 animate-spin text-muted-foreground', className)} />
      <span className={hideLabel ? 'sr-only' : 'text-sm text-muted-foreground'}>{label}</span>
    </span>
  )
}
