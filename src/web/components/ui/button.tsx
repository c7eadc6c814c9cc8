import { Slot } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from '../../lib/cn.ts'

const variants = {
  primary: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary/90',
  secondary: 'bg-muted text-foreground hover:bg-muted/70',
  outline: 'border border-input bg-card text-foreground shadow-xs hover:bg-muted',
  ghost: 'text-foreground hover:bg-muted',
  destructive: 'bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive/90',
  link: 'text-primary underline-offset-4 hover:underline px-0 py-0 min-h-0',
} as const

// Heights are minimums: a label longer than the space it gets (German, on a phone) wraps onto a
// second line inside the button instead of running out of it.
const sizes = {
  sm: 'min-h-8 px-3 py-1 text-sm gap-1.5',
  md: 'min-h-9 px-4 py-1.5 text-sm gap-2',
  lg: 'min-h-10 px-5 py-2 text-base gap-2',
  icon: 'size-9',
  'icon-sm': 'size-8',
} as const

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: keyof typeof variants
  size?: keyof typeof sizes
  /** Renders the child element (e.g. a Link) with the button's look. */
  asChild?: boolean
}

export function Button({
  variant = 'primary',
  size = 'md',
  asChild,
  className,
  type,
  ...props
}: ButtonProps) {
  const Component = asChild ? Slot.Root : 'button'
  return (
    <Component
      type={asChild ? undefined : (type ?? 'button')}
      className={cn(
        'inline-flex max-w-full shrink-0 cursor-pointer items-center justify-center rounded-md text-center font-medium transition-colors disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
        variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    />
  )
}
