import { useTranslation } from 'react-i18next'
import { nearLimit, usagePercent } from '../../../domain/plans.ts'
import { cn } from '../../lib/cn.ts'

/** "{used} of {max} prompts" with a bar capped at 100%; warns from 80% on. */
export function UsageBar({
  resource,
  used,
  max,
  className,
}: {
  resource: 'prompts' | 'team_members'
  used: number
  max: number | null
  className?: string
}) {
  const { t } = useTranslation('plans')
  const percent = usagePercent(used, max)
  const text = t(`usage.${resource}`, { used, max: max ?? '∞' })
  const full = max !== null && used >= max
  return (
    <div className={cn('space-y-1', className)}>
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="text-muted-foreground">
          {resource === 'prompts' ? t('usage.promptsLabel') : t('usage.membersLabel')}
        </span>
        <span className="font-medium tabular-nums">{text}</span>
      </div>
      <div
        role="progressbar"
        aria-label={text}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn(
            'h-full rounded-full transition-[width]',
            full ? 'bg-destructive' : nearLimit(used, max) ? 'bg-warning' : 'bg-primary',
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  )
}
