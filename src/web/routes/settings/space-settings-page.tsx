import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '../../components/page-header.tsx'
import { SpaceSelect, useSpaceParam } from '../../components/space-select.tsx'
import { useMyTeams } from '../../features/teams/index.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

/** The settings pages that manage one space's things; each namespace has the frame's texts. */
type SpaceNamespace = 'models' | 'publicApi' | 'webhooks'

/**
 * The space a settings page manages: the user's own (null) or a team they administer, kept in the
 * URL (`?team=`).
 */
export function useManagedSpace() {
  const teams = useMyTeams()
  const adminTeams = (teams.data ?? []).filter((team) => team.isAdmin)
  const [teamId, setTeamId] = useSpaceParam(teams.data && adminTeams)
  return { teamId, setTeamId, adminTeams }
}

/**
 * The frame of /settings/models, /settings/api and /settings/webhooks: title (also the document's),
 * description and the page's actions, the choice of space when the user administers a team, then
 * the page's content for that space.
 */
export function SpaceSettingsPage({
  namespace,
  space,
  actions,
  children,
}: {
  namespace: SpaceNamespace
  space: ReturnType<typeof useManagedSpace>
  actions: ReactNode
  children: ReactNode
}) {
  const { t } = useTranslation(namespace)
  useDocumentTitle(t('title'))
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={actions} />
      <div className="space-y-6">
        {space.adminTeams.length > 0 && (
          <SpaceSelect
            label={t('space')}
            personalLabel={t('personal')}
            teamLabel={(name) => t('team', { name })}
            teams={space.adminTeams}
            value={space.teamId}
            onChange={space.setTeamId}
          />
        )}
        {children}
      </div>
    </>
  )
}
