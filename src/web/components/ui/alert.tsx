import { AlertCircle, CheckCircle2, Info } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn.ts'
import { Button } from './button.tsx'

const styles = {
  info: { box: 'border-border bg-muted/50', icon: Info },
  success: { box: 'border-success/40 bg-success/10', icon: CheckCircle2 },
  error: { box: 'border-destructive/40 bg-destructive/10', icon: AlertCircle },
} as const

export function Alert({
  tone = 'info',
  title,
  children,
  action,
  className,
}: {
  tone?: keyof typeof styles
  title?: ReactNode
  children?: ReactNode
  action?: ReactNode
  className?: string
}) {
  const Icon = styles[tone].icon
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-lg border p-3 text-sm', styles[tone].box, className)}
    >
      <Icon
        aria-hidden
        className={cn(
          'mt-0.5 size-4 shrink-0',
          tone === 'error' && 'text-destructive',
          tone === 'success' && 'text-success',
        )}
      />
      <div className="min-w-0 flex-1 space-y-1">
        {title && <p className="font-medium">{title}</p>}
        {children && <div className="text-muted-foreground">{children}</div>}
      </div>
      {action}
    </div>
  )
}

/** Something failed to load: what, the server's reason if any, and Retry. */
export function RetryAlert({
  title,
  onRetry,
  children,
  className,
}: {
  title: ReactNode
  onRetry: () => void
  children?: ReactNode
  className?: string
}) {
  const { t } = useTranslation('common')
  return (
    <Alert
      tone="error"
      title={title}
      className={className}
      action={
        <Button variant="outline" size="sm" onClick={onRetry}>
          {t('retry')}
        </Button>
      }
    >
      {children}
    </Alert>
  )
}
