import { AddProviderDialog, ProviderList } from '../../features/models/index.ts'
import { SpaceSettingsPage, useManagedSpace } from './space-settings-page.tsx'

/** /settings/models: the model providers of the personal space, and of the teams the user administers. */
export function ModelsSettingsPage() {
  const space = useManagedSpace()
  return (
    <SpaceSettingsPage namespace="models" space={space} actions={<AddProviderDialog teamId={space.teamId} />}>
      <ProviderList key={space.teamId ?? ''} teamId={space.teamId} />
    </SpaceSettingsPage>
  )
}
