import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import {
  decide,
  type Entitlements,
  type GatedAction,
  type PlanLimitDetails,
  paywallTitleOf,
  refusalMessageKey,
} from '../../../domain/plans.ts'
import { Button } from '../../components/ui/button.tsx'
import { Dialog, DialogClose, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { message } from '../../i18n/index.ts'
import { ApiError } from '../../lib/api.ts'
import { UsageBar } from './usage-bar.tsx'

type Paywall = PlanLimitDetails & { text?: string }

/**
 * The paywall dialog: 'Upgrade required', 'Limit reached' or 'Feature not available', the
 * reason in words, the usage where known (bar capped at 100%), Cancel and Choose plan (→ /billing).
 */
export function PaywallDialog({ paywall, onClose }: { paywall: Paywall | null; onClose: () => void }) {
  const { t } = useTranslation('plans')
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
  return {
    allows(entitlements: Entitlements | undefined, action: GatedAction): boolean {
      if (!entitlements) return true
      const decision = decide(entitlements, action)
      if (decision.allowed) return true
      const { allowed: _, ...details } = decision
      setPaywall(details)
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
