import type { LucideIcon } from 'lucide-react'
import { Component, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { cn } from '../../lib/cn.ts'

/** One dashboard card: a titled region (for screen readers' landmarks), its actions and its body. */
export function Widget({
  title,
  icon: Icon,
  actions,
  className,
  children,
}: {
  title: string
  icon?: LucideIcon
  actions?: ReactNode
  className?: string
  children: ReactNode
}) {
  return (
    <Card role="region" aria-label={title} className={cn('flex flex-col', className)}>
      {/* The actions ("View all") keep to the title's row; a long title wraps beside them. */}
      <CardHeader className="flex-row items-center justify-between gap-x-2">
        <CardTitle className="flex min-w-0 flex-1 items-center gap-2">
          {Icon && <Icon aria-hidden className="size-4 shrink-0 text-primary" />}
          <span className="break-words">{title}</span>
        </CardTitle>
        {actions && <div className="shrink-0">{actions}</div>}
      </CardHeader>
      <CardContent className="flex-1">{children}</CardContent>
    </Card>
  )
}

/** A widget's body while loading (its own skeleton), after a failure (Retry), or its content. */
export function WidgetBody({
  title,
  query,
  rows = 3,
  children,
}: {
  title: string
  query: { isPending: boolean; isError: boolean; refetch: () => unknown }
  rows?: number
  children: () => ReactNode
}) {
  const { t } = useTranslation('dashboard')
  if (query.isPending && !query.isError)
    return (
      <LoadingSkeletons label={t('loading', { widget: title })} className="space-y-2">
        {Array.from({ length: rows }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders never reorder
          <Skeleton key={index} className="h-9 w-full" />
        ))}
      </LoadingSkeletons>
    )
  if (query.isError) return <WidgetFailed onRetry={() => void query.refetch()} />
  return <>{children()}</>
}

function WidgetFailed({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation('dashboard')
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground"
    >
      <span>{t('loadFailed')}</span>
      {onRetry && (
        <Button variant="outline" size="sm" onClick={onRetry}>
          {t('retry')}
        </Button>
      )}
    </div>
  )
}

/**
 * Keeps one widget's failure to itself: a widget that throws while rendering shows its failure
 * line, and the rest of the dashboard stays.
 */
export class WidgetBoundary extends Component<{ title: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    if (!this.state.failed) return this.props.children
    return (
      <Widget title={this.props.title}>
        <WidgetFailed onRetry={() => this.setState({ failed: false })} />
      </Widget>
    )
  }
}

/** An empty widget's one line. */
export function WidgetEmpty({ children }: { children: ReactNode }) {
  return <p className="text-sm text-muted-foreground">{children}</p>
}
