import { useTranslation } from 'react-i18next'
import type { AdminUser } from '../../../domain/admin.ts'
import { type ChoosablePlanId, type PlanContext, plansFor } from '../../../domain/plans.ts'
import { Select } from '../../components/ui/input.tsx'

/**
 * A user's or a team's plan as the admin tables show it: "Unlimited" with plans off, else a
 * choice of the plans offered to that kind of space, the empty choice naming the state without one.
 */
export function PlanSelect({
  context,
  plan,
  label,
  disabled,
  onChange,
}: {
  context: PlanContext
  plan: AdminUser['plan']
  label: string
  disabled: boolean
  onChange: (plan: ChoosablePlanId | null) => void
}) {
  const { t } = useTranslation('admin')
  if (plan.state === 'unlimited') return <span className="text-muted-foreground">{t('plans.unlimited')}</span>
  return (
    <Select
      aria-label={label}
      // As wide as its longest choice ("Kostenlose Testphase"), never cut.
      className="h-8 w-auto min-w-40 py-0 text-xs"
      value={plan.state === 'active' ? (plan.plan ?? '') : ''}
      disabled={disabled}
      onChange={(event) =>
        onChange(event.target.value === '' ? null : (event.target.value as ChoosablePlanId))
      }
    >
      <option value="">
        {plan.state === 'trial'
          ? t('plans.trial')
          : plan.state === 'payment_required'
            ? t('plans.paymentRequired')
            : t('plans.none')}
      </option>
      {plansFor(context).map((choice) => (
        <option key={choice.id} value={choice.id}>
          {t(`plans.${choice.id as 'free' | 'pro' | 'team'}`)}
        </option>
      ))}
    </Select>
  )
}
