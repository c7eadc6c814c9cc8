import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import {
  type ChoosablePlanId,
  decide,
  type Entitlements,
  type GatedAction,
  type PlanLimitDetails,
  paywallTitleOf,
  plansFor,
  refusalMessageKey,
} from '../../../domain/plans.ts'
import { Button } from '../../components/ui/button.tsx'
import { Dialog, DialogClose, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { message } from '../../i18n/index.ts'
import { ApiError, errorText } from '../../lib/api.ts'
import { useCurrentUser } from '../auth/index.ts'
import { useAdminGrantPlan } from './queries.ts'
import { UsageBar } from './usage-bar.tsx'

/** `subjectId`: the refused space (the user or the team), when known; a global admin may lift it. */
type Paywall = PlanLimitDetails & { text?: string; subjectId?: string }

/**
 * A global admin meeting the paywall may grant the space its largest plan on the spot (a
 * self-hosted install with plans on would otherwise need a detour through /admin).
 */
function AdminGrant({ paywall, onDone }: { paywall: Paywall & { subjectId: string }; onDone: () => void }) {
  const { t } = useTranslation('plans')
  const grant = useAdminGrantPlan()
  const plan = plansFor(paywall.context).at(-1)?.id ?? 'pro'
  const planName = t(`plan.${plan}`)
  return (
    <div className="space-y-2 rounded-md border p-3">
      <p className="text-sm">{t('paywall.adminHint', { plan: planName })}</p>
      <Button
        variant="outline"
        disabled={grant.isPending}
        onClick={() =>
          grant.mutate(
            { context: paywall.context, subjectId: paywall.subjectId, plan: plan as ChoosablePlanId },
            {
              onSuccess: () => {
                toast({ title: t('paywall.granted', { plan: planName }), tone: 'success' })
                onDone()
              },
              onError: (error) => toast({ title: errorText(error, t('paywall.grantFailed')), tone: 'error' }),
            },
          )
        }
      >
        {t('paywall.grant', { plan: planName })}
      </Button>
    </div>
  )
}

/**
 * The paywall dialog: 'Upgrade required', 'Limit reached' or 'Feature not available', the
 * reason in words, the usage where known (bar capped at 100%), Cancel and Choose plan (→ /billing).
 */
function PaywallDialog({ paywall, onClose }: { paywall: Paywall | null; onClose: () => void }) {
  const { t } = useTranslation('plans')
  const isGlobalAdmin = useCurrentUser().globalRole === 'global_admin'
  return (
    <Dialog open={paywall !== null} onOpenChange={(open) => !open && onClose()}>
      {paywall && (
        <DialogContent
          title={t(`paywall.${paywallTitleOf(paywall.reason)}`)}
          description={paywall.text ?? message(refusalMessageKey(paywall), { max: paywall.max ?? '—' })}
        >
          {paywall.used !== null &&
            paywall.max !== null &&
            (paywall.resource === 'prompts' || paywall.resource === 'team_members') && (
              <UsageBar resource={paywall.resource} used={paywall.used} max={paywall.max} />
            )}
          {isGlobalAdmin && paywall.subjectId && (
            <AdminGrant paywall={{ ...paywall, subjectId: paywall.subjectId }} onDone={onClose} />
          )}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">{t('paywall.cancel')}</Button>
            </DialogClose>
            <Button asChild>
              <Link to="/billing" onClick={onClose}>
                {t('paywall.choosePlan')}
              </Link>
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  )
}

/**
 * The paywall of one screen. `allows(entitlements, action)` is asked before a gated action and opens
 * the paywall when the entitlements say no (unknown entitlements let the action go on: the server
 * decides); `showIfPlanLimit(error)` opens it when the server refused with `plan_limit`.
 */
export function usePaywall() {
  const [paywall, setPaywall] = useState<Paywall | null>(null)
  const userId = useCurrentUser().id
  return {
    allows(entitlements: Entitlements | undefined, action: GatedAction): boolean {
      if (!entitlements) return true
      const decision = decide(entitlements, action)
      if (decision.allowed) return true
      const { allowed: _, ...details } = decision
      setPaywall({ ...details, subjectId: entitlements.teamId ?? userId })
      return false
    },
    showIfPlanLimit(error: unknown): boolean {
      if (!(error instanceof ApiError) || error.code !== 'plan_limit' || !error.planLimit) return false
      setPaywall({ ...error.planLimit, text: error.message })
      return true
    },
    dialog: <PaywallDialog paywall={paywall} onClose={() => setPaywall(null)} />,
  }
}
