import { useTranslation } from 'react-i18next'
import { PageHeader } from '../../components/page-header.tsx'
import { SpaceSelect, useSpaceParam } from '../../components/space-select.tsx'
import { AddProviderDialog, ProviderList } from '../../features/models/provider-list.tsx'
import { useMyTeams } from '../../features/teams/index.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

/** /settings/models: the model providers of the personal space, and of the teams the user administers. */
export function ModelsSettingsPage() {
  const { t } = useTranslation('models')
  useDocumentTitle(t('title'))
  const teams = useMyTeams()
  const adminTeams = (teams.data ?? []).filter((team) => team.isAdmin)
  const [teamId, setTeamId] = useSpaceParam(teams.data && adminTeams)
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={<AddProviderDialog teamId={teamId} />}
      />
      <div className="space-y-6">
        {adminTeams.length > 0 && (
          <SpaceSelect
            label={t('space')}
            personalLabel={t('personal')}
            teamLabel={(name) => t('team', { name })}
            teams={adminTeams}
            value={teamId}
            onChange={setTeamId}
          />
        )}
        <ProviderList key={teamId ?? ''} teamId={teamId} />
      </div>
    </>
  )
}
