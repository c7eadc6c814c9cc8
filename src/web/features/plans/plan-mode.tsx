import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert.tsx'
import { useEntitlements } from './queries.ts'

/**
 * For /admin: whether this installation runs with plans (PLANS=on: trials, limits, paywall) or
 * without (PLANS=off), read from the admin's own entitlements ('unlimited' only when plans are off).
 */
export function PlanModeNotice() {
  const { t } = useTranslation('plans')
  const entitlements = useEntitlements()
  if (!entitlements.data) return null
  const off = entitlements.data.state === 'unlimited'
  return (
    <Alert className="mb-6" title={off ? t('mode.offTitle') : t('mode.onTitle')}>
      {off ? t('mode.offText') : t('mode.onText')}
    </Alert>
  )
}
