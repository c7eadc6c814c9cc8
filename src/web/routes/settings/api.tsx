import { CreateKeyDialog, KeyList, UsageCards } from '../../features/api-keys/index.ts'
import { ApiAccessBadge } from '../../features/plans/index.ts'
import { SpaceSettingsPage, useManagedSpace } from './space-settings-page.tsx'

/** /settings/api: the caller's personal keys, and the keys of the teams they administer. */
export function ApiSettingsPage() {
  const space = useManagedSpace()
  return (
    <SpaceSettingsPage
      namespace="publicApi"
      space={space}
      actions={
        <div className="flex items-center gap-2">
          <ApiAccessBadge teamId={space.teamId ?? undefined} />
          <CreateKeyDialog teamId={space.teamId} />
        </div>
      }
    >
      <KeyList teamId={space.teamId} />
      <UsageCards />
    </SpaceSettingsPage>
  )
}
