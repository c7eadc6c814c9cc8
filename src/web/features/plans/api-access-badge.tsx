import { Lock } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '../../components/ui/badge.tsx'
import { useEntitlements } from './queries.ts'

/**
 * 'API access locked' for a space whose plan has no API
 * access; nothing otherwise. For /settings/api (and the webhooks screen, with `feature="webhooks"`).
 */
export function ApiAccessBadge({
  teamId,
  feature = 'apiAccess',
}: {
  teamId?: string
  feature?: 'apiAccess' | 'webhooks'
}) {
  const { t } = useTranslation('plans')
  const entitlements = useEntitlements(teamId)
  if (!entitlements.data || entitlements.data.limits[feature]) return null
  return (
    <Badge variant="warning">
      <Lock aria-hidden />
      {feature === 'apiAccess' ? t('features.apiLocked') : t('features.noWebhooks')}
    </Badge>
  )
}
