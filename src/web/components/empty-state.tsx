import { ArrowLeft, type LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError, errorText } from '../lib/api.ts'
import { cn } from '../lib/cn.ts'
import { Button } from './ui/button.tsx'
import { Card } from './ui/card.tsx'

/**
 * A card that stands in for content that is not there — an empty list, a missing or forbidden
 * object, a screen not built yet — saying why and offering the way on. `heading` is h1 where the
 * card is all the page shows.
 */
export function EmptyState({
  icon: Icon,
  title,
  text,
  actions,
  heading: Heading = 'h2',
  className,
}: {
  icon?: LucideIcon
  title: ReactNode
  text?: ReactNode
  actions?: ReactNode
  heading?: 'h1' | 'h2'
  className?: string
}) {
  return (
    <Card className={cn('flex flex-col items-center gap-3 px-6 py-14 text-center', className)}>
      {Icon && <Icon aria-hidden className="size-8 text-muted-foreground" />}
      <Heading className="text-lg font-semibold">{title}</Heading>
      {text && <p className="max-w-md text-sm text-muted-foreground">{text}</p>}
      {actions && <div className="flex flex-wrap justify-center gap-2">{actions}</div>}
    </Card>
  )
}

/**
 * A page whose object did not load: 'not found' when the server answered 404 (missing, or not the
 * user's to see), else the failure with Retry. Either way a button leads back to the list.
 */
export function LoadFailedState({
  error,
  onRetry,
  icon,
  notFoundTitle,
  notFoundText,
  failedTitle,
  back,
  className,
}: {
  error: unknown
  onRetry: () => void
  icon: LucideIcon
  notFoundTitle: string
  notFoundText: string
  failedTitle: string
  back: { to: string; label: string }
  className?: string
}) {
  const { t } = useTranslation('common')
  const missing = error instanceof ApiError && error.status === 404
  return (
    <EmptyState
      icon={icon}
      heading="h1"
      title={missing ? notFoundTitle : failedTitle}
      text={missing ? notFoundText : errorText(error, failedTitle)}
      className={className}
      actions={
        <>
          <Button asChild variant={missing ? 'primary' : 'outline'}>
            <Link to={back.to}>
              <ArrowLeft aria-hidden />
              {back.label}
            </Link>
          </Button>
          {!missing && <Button onClick={onRetry}>{t('retry')}</Button>}
        </>
      }
    />
  )
}
