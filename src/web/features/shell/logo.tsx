import { cn } from '../../lib/cn.ts'

export function Logo({ className, withText = true }: { className?: string; withText?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <svg aria-hidden viewBox="0 0 32 32" className="size-7">
        <rect width="32" height="32" rx="8" className="fill-primary" />
        <path
          d="M10 8h8a6 6 0 0 1 0 12h-4v4h-4z"
          fill="none"
          stroke="white"
          strokeWidth="3"
          strokeLinejoin="round"
        />
      </svg>
      {withText && <span className="text-lg">Promptfolio</span>}
    </span>
  )
}
