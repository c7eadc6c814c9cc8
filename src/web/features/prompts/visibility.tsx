import { Lock, Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { PromptVisibility } from '../../../domain/prompts.ts'
import { cn } from '../../lib/cn.ts'

/** The lock (private) or people (team) icon, with its meaning for screen readers and on hover. */
export function VisibilityIcon({
  visibility,
  className,
}: {
  visibility: PromptVisibility
  className?: string
}) {
  const { t } = useTranslation('prompts')
  const Icon = visibility === 'team' ? Users : Lock
  const label = t(`visibility.${visibility}`)
  return (
    <span title={label} className={cn('inline-flex shrink-0', className)}>
      <Icon aria-hidden className="size-4" />
      <span className="sr-only">{label}</span>
    </span>
  )
}

/** The icon with its word: 'Private', 'Team', or 'Team · {name}'. */
export function VisibilityLabel({
  visibility,
  teamName,
}: {
  visibility: PromptVisibility
  teamName?: string
}) {
  const { t } = useTranslation('prompts')
  const Icon = visibility === 'team' ? Users : Lock
  return (
    <span className="inline-flex items-center gap-1.5">
      <Icon aria-hidden className="size-4" />
      {visibility === 'team' && teamName
        ? t('visibility.teamNamed', { team: teamName })
        : t(`visibility.${visibility}`)}
    </span>
  )
}
