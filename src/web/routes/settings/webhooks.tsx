import { Lock } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { EmptyState } from '../../components/empty-state.tsx'
import { Button } from '../../components/ui/button.tsx'
import { ApiAccessBadge, useEntitlements, usePaywall } from '../../features/plans/index.ts'
import { AddEndpointDialog, EndpointList } from '../../features/webhooks/index.ts'
import { SpaceSettingsPage, useManagedSpace } from './space-settings-page.tsx'

/** /settings/webhooks: the personal space's endpoints, and those of the teams the user administers. */
export function WebhooksSettingsPage() {
  const { t } = useTranslation('webhooks')
  const space = useManagedSpace()
  const teamId = space.teamId ?? undefined
  const entitlements = useEntitlements(teamId)
  const paywall = usePaywall()
  const allowed = () => paywall.allows(entitlements.data, 'webhooks')
  const locked = entitlements.data !== undefined && !entitlements.data.limits.webhooks
  return (
    <SpaceSettingsPage
      namespace="webhooks"
      space={space}
      actions={
        <div className="flex items-center gap-2">
          <ApiAccessBadge teamId={teamId} feature="webhooks" />
          <AddEndpointDialog teamId={space.teamId} allowed={allowed} />
        </div>
      }
    >
      {paywall.dialog}
      {locked && (
        <EmptyState
          icon={Lock}
          title={t('lockedTitle')}
          text={t('lockedText')}
          actions={
            <Button asChild>
              <Link to="/billing">{t('choosePlan')}</Link>
            </Button>
          }
        />
      )}
      <EndpointList teamId={space.teamId} allowed={allowed} />
    </SpaceSettingsPage>
  )
}
