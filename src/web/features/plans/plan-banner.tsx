import { Sparkles } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { type Entitlements, planBanner, refusalMessageKey } from '../../../domain/plans.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { message } from '../../i18n/index.ts'
import { cn } from '../../lib/cn.ts'
import { useEntitlements } from './queries.ts'
import { UsageBar } from './usage-bar.tsx'

/** 'Free Trial · 9 days left', 'Trial ended · choose a plan', 'Free', 'Pro', …. */
export function PlanStateLabel({ entitlements }: { entitlements: Entitlements }) {
  const { t } = useTranslation('plans')
  const { state } = entitlements
  if (state === 'trial') return <>{t('state.trial', { count: entitlements.trial.daysLeft })}</>
  if (state === 'active') return <>{t(`plan.${entitlements.plan ?? 'free'}`)}</>
  return <>{t(`state.${state}`)}</>
}

/**
 * The plan banner of one space: the personal one, or a team (`teamId`): shown on payment_required, at
 * 80% or more of the prompt limit (or of the member limit in team context), and when API access is
 * locked; nothing otherwise, and nothing while loading or with plans off.
 */
export function PlanBanner({
  teamId,
  teamName,
  className,
}: {
  teamId?: string
  /** Names the team where a screen shows a team's space (the prompts list's team scope). */
  teamName?: string
  className?: string
}) {
  const { t } = useTranslation('plans')
  const entitlements = useEntitlements(teamId)
  if (!entitlements.data) return null
  const banner = planBanner(entitlements.data)
  if (!banner) return null
  const urgent = banner.kind === 'payment_required' || (banner.max !== null && banner.used >= banner.max)
  const text =
    banner.kind === 'payment_required'
      ? message(
          refusalMessageKey({
            context: entitlements.data.context,
            reason: 'payment_required',
            resource: 'prompts',
            used: null,
            max: null,
          }),
        )
      : banner.kind === 'api_locked'
        ? t('banner.apiLocked')
        : t(urgent ? 'banner.limitReached' : 'banner.nearLimit', {
            usage: t(`usage.${banner.resource}`, { used: banner.used, max: banner.max }),
          })
  return (
    <section
      aria-label={teamName ? t('banner.teamLabel', { name: teamName }) : t('banner.label')}
      data-testid="plan-banner"
      className={cn(
        'mb-4 flex flex-col gap-3 rounded-xl border p-4 sm:flex-row sm:items-center',
        urgent ? 'border-destructive/40 bg-destructive/5' : 'border-warning/50 bg-warning/10',
        className,
      )}
    >
      <Sparkles aria-hidden className="size-5 shrink-0 text-primary" />
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          {teamName && <Badge variant="default">{t('banner.team', { name: teamName })}</Badge>}
          <Badge variant={banner.kind === 'payment_required' ? 'destructive' : 'outline'}>
            <PlanStateLabel entitlements={entitlements.data} />
          </Badge>
          {banner.kind === 'api_locked' && <Badge variant="warning">{t('features.apiLocked')}</Badge>}
        </div>
        <p className="text-sm">{text}</p>
        {banner.kind === 'limit' && (
          <UsageBar resource={banner.resource} used={banner.used} max={banner.max} className="max-w-sm" />
        )}
      </div>
      <Button asChild size="sm" variant={urgent ? 'primary' : 'outline'}>
        <Link to="/billing">
          {banner.kind === 'payment_required' ? t('banner.choosePlan') : t('banner.upgrade')}
        </Link>
      </Button>
    </section>
  )
}
