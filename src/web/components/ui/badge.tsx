import type { ComponentProps } from 'react'
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
