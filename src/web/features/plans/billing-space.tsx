import { Check, Lock } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import {
  type BillingSpace,
  type ChoosablePlanId,
  type PlanDefinition,
  type PlanRequest,
  plansFor,
} from '../../../domain/plans.ts'
import { formatShortDate } from '../../../domain/time.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card } from '../../components/ui/card.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { cn } from '../../lib/cn.ts'
import { PlanStateLabel } from './plan-banner.tsx'
import { useCancelPlanRequest, useChoosePlan } from './queries.ts'
import { UsageBar } from './usage-bar.tsx'

function PlanFeatures({ plan, context }: { plan: PlanDefinition; context: 'personal' | 'team' }) {
  const { t } = useTranslation('plans')
  const limits = plan.limits[context]!
  const item = (ok: boolean, text: string) => (
    <li className={cn('flex items-center gap-2', !ok && 'text-muted-foreground')}>
      {ok ? <Check aria-hidden className="size-4 text-success" /> : <Lock aria-hidden className="size-4" />}
      {text}
    </li>
  )
  return (
    <ul className="space-y-1.5 text-sm">
      {item(true, t('features.prompts', { max: limits.maxPrompts.toLocaleString(currentLanguage()) }))}
      {item(true, t('features.members', { count: limits.maxTeamMembers }))}
      {item(limits.apiAccess, limits.apiAccess ? t('features.apiAccess') : t('features.apiLocked'))}
      {item(limits.webhooks, limits.webhooks ? t('features.webhooks') : t('features.noWebhooks'))}
    </ul>
  )
}

function RequestList({ requests }: { requests: PlanRequest[] }) {
  const { t } = useTranslation('plans')
  const cancel = useCancelPlanRequest()
  if (requests.length === 0) return null
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-medium">{t('billing.requests')}</h3>
      <ul className="divide-y rounded-lg border text-sm">
        {requests.map((request) => (
          <li key={request.id} className="flex flex-wrap items-center gap-2 p-3">
            <span className="flex-1">
              {t('billing.requestLine', {
                plan: t(`plan.${request.plan}`),
                date: formatShortDate(request.createdAt, currentLanguage()),
              })}
            </span>
            <Badge
              variant={
                request.status === 'granted'
                  ? 'success'
                  : request.status === 'pending'
                    ? 'warning'
                    : 'outline'
              }
            >
              {t(`billing.status.${request.status}`)}
            </Badge>
            {request.status === 'pending' && (
              <Button
                size="sm"
                variant="ghost"
                disabled={cancel.isPending}
                onClick={() =>
                  cancel.mutate(request.id, {
                    onSuccess: () => toast({ title: t('billing.withdrawn'), tone: 'success' }),
                    onError: (error) =>
                      toast({
                        title: t('billing.cancelFailed'),
                        description: errorText(error, ''),
                        tone: 'error',
                      }),
                  })
                }
              >
                {t('billing.cancelRequest')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  )
}

/** One space on /billing: its state, trial, usage bars, the plans side by side and its requests. */
export function BillingSpaceCard({ space }: { space: BillingSpace }) {
  const { t } = useTranslation('plans')
  const choose = useChoosePlan()
  const { entitlements, requests } = space
  const { context } = entitlements
  const pending = requests.find((request) => request.status === 'pending')
  const current = entitlements.state === 'active' ? entitlements.plan : null
  const onChoose = (plan: ChoosablePlanId) =>
    choose.mutate(
      { plan, teamId: entitlements.teamId },
      {
        onSuccess: (result) =>
          toast({
            title:
              result.outcome === 'active'
                ? t('billing.chosen', { plan: t(`plan.${plan}`) })
                : t('billing.requested', { plan: t(`plan.${plan}`) }),
            tone: 'success',
          }),
        onError: (error) =>
          toast({ title: t('billing.chooseFailed'), description: errorText(error, ''), tone: 'error' }),
      },
    )
  const headingId = `billing-${entitlements.teamId ?? 'personal'}`
  return (
    <Card>
      <section aria-labelledby={headingId} className="space-y-5 p-5 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={headingId} className="min-w-0 text-lg font-semibold">
            <span className="text-muted-foreground">
              {context === 'team' ? t('billing.team') : t('billing.personal')}:{' '}
            </span>
            <span className="break-all">{space.name}</span>
          </h2>
          <Badge variant={entitlements.state === 'payment_required' ? 'destructive' : 'primary'}>
            <PlanStateLabel entitlements={entitlements} />
          </Badge>
        </div>
        {entitlements.state === 'unlimited' ? (
          <p className="text-sm text-muted-foreground">{t('billing.plansOff')}</p>
        ) : (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <UsageBar
                resource="prompts"
                used={entitlements.usage.prompts}
                max={entitlements.limits.maxPrompts}
              />
              {context === 'team' && (
                <UsageBar
                  resource="team_members"
                  used={entitlements.usage.teamMembers}
                  max={entitlements.limits.maxTeamMembers}
                />
              )}
            </div>
            <ul
              aria-label={t('billing.plansLabel', { name: space.name })}
              className="grid gap-4 sm:grid-cols-2"
            >
              {plansFor(context).map((plan) => {
                const id = plan.id as ChoosablePlanId
                const isCurrent = current === id
                const isPending = pending?.plan === id
                return (
                  <li
                    key={id}
                    aria-current={isCurrent ? 'true' : undefined}
                    className={cn(
                      'flex flex-col gap-3 rounded-xl border p-4',
                      isCurrent && 'border-primary ring-1 ring-primary',
                    )}
                  >
                    <div className="flex items-center justify-between gap-2">
                      <h3 className="font-semibold">{t(`plan.${id}`)}</h3>
                      {isCurrent && <Badge variant="primary">{t('billing.current')}</Badge>}
                    </div>
                    <PlanFeatures plan={plan} context={context} />
                    <div className="mt-auto">
                      {isCurrent ? null : isPending ? (
                        <Button size="sm" variant="outline" disabled>
                          {t('billing.requestPending')}
                        </Button>
                      ) : (
                        <Button
                          size="sm"
                          variant={plan.paid ? 'primary' : 'outline'}
                          disabled={choose.isPending}
                          onClick={() => onChoose(id)}
                        >
                          {plan.paid
                            ? t('billing.request', { plan: t(`plan.${id}`) })
                            : current
                              ? t('billing.downgrade', { plan: t(`plan.${id}`) })
                              : t('billing.choose', { plan: t(`plan.${id}`) })}
                        </Button>
                      )}
                    </div>
                  </li>
                )
              })}
            </ul>
            <p className="text-xs text-muted-foreground">{t('billing.manualNote')}</p>
            <RequestList requests={requests} />
          </>
        )}
      </section>
    </Card>
  )
}
