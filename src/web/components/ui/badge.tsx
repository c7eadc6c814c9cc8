import { X } from 'lucide-react'
import { Children, type ComponentProps, type ReactNode } from 'react'
import { cn } from '../../lib/cn.ts'

const variants = {
  default: 'bg-muted text-foreground',
  primary: 'bg-accent text-accent-foreground',
  outline: 'border border-border text-muted-foreground',
  success: 'bg-success/15 text-success',
  warning: 'bg-warning/20 text-foreground',
  destructive: 'bg-destructive/15 text-destructive',
} as const

const isText = (node: ReactNode) => typeof node === 'string' || typeof node === 'number'

/** The text of a badge in a span that may be cut (`#{tag}` stays one run of text). */
function truncatedText(children: ReactNode): ReactNode {
  const parts = Children.toArray(children)
  if (parts.every(isText)) return <span className="truncate">{parts.join('')}</span>
  return parts.map((part, index) =>
    isText(part) ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one badge never reorder
      <span key={index} className="truncate">
        {part}
      </span>
    ) : (
      part
    ),
  )
}

/**
 * A short label. It never grows wider than its container: its text is cut with an ellipsis (a long
 * team name or tag on a phone), so give it a `title` where the text is the user's.
 */
export function Badge({
  className,
  variant = 'default',
  children,
  ...props
}: ComponentProps<'span'> & { variant?: keyof typeof variants }) {
  return (
    <span
      className={cn(
        'inline-flex max-w-full items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap [&_svg]:size-3 [&_svg]:shrink-0',
        variants[variant],
        className,
      )}
      {...props}
    >
      {truncatedText(children)}
    </span>
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
