import { Settings2, UsersRound } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { AdminTeam } from '../../../domain/admin.ts'
import type { ChoosablePlanId } from '../../../domain/plans.ts'
import { DataTable } from '../../components/data-table.tsx'
import { SearchInput } from '../../components/search-input.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { errorText } from '../../lib/api.ts'
import { formatDate } from '../../lib/format.ts'
import { PlanSelect } from './plan-select.tsx'
import { useAdminTeams, useSetTeamPlan } from './queries.ts'

/** The server's limit for a team name, and so for a search over names. */
const SEARCH_MAX = 100

function Admins({ team }: { team: AdminTeam }) {
  const { t } = useTranslation('admin')
  if (team.adminCount === 0) return <span className="text-muted-foreground">{t('teams.noAdmins')}</span>
  const more = team.adminCount - team.admins.length
  return (
    <ul className="space-y-0.5">
      {team.admins.map((admin) => (
        <li key={admin.id} className="max-w-44 truncate" title={admin.email}>
          {admin.email}
        </li>
      ))}
      {more > 0 && (
        <li className="text-xs text-muted-foreground">{t('teams.moreAdmins', { count: more })}</li>
      )}
    </ul>
  )
}

/**
 * Teams (global admins): every team with its members, admins, plan, prompts, conversations and
 * creation date; search over the name; the team's plan set in place; "Manage" opens the team's
 * page, where a global admin holds every right of a team admin.
 */
export function TeamsTable() {
  const { t } = useTranslation('admin')
  const [search, setSearch] = useState('')
  const teams = useAdminTeams(search)
  const setPlan = useSetTeamPlan()
  const total = teams.data?.pages[0]?.counts.teams
  const items = teams.data?.pages.flatMap((page) => page.items) ?? []

  const changePlan = (team: AdminTeam, plan: ChoosablePlanId | null) =>
    setPlan.mutate(
      { teamId: team.id, plan },
      {
        onSuccess: () => toast({ title: t('teams.planUpdated', { name: team.name }), tone: 'success' }),
        onError: (error) =>
          toast({ title: t('users.planFailed'), description: errorText(error, ''), tone: 'error' }),
      },
    )

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchInput
          value={search}
          onSearch={setSearch}
          label={t('teams.search')}
          placeholder={t('teams.searchPlaceholder')}
          maxLength={SEARCH_MAX}
          className="sm:max-w-sm"
        />
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {total !== undefined ? t('teams.teamCount', { count: total }) : ' '}
        </p>
      </div>
      {teams.isPending ? (
        <LoadingSkeletons label={t('teams.loading')} className="space-y-2">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </LoadingSkeletons>
      ) : teams.isError ? (
        <RetryAlert title={t('teams.loadFailed')} onRetry={() => void teams.refetch()}>
          {errorText(teams.error, '')}
        </RetryAlert>
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border py-12 text-center">
          <UsersRound aria-hidden className="size-7 text-muted-foreground" />
          <p className="font-medium">{search ? t('teams.emptySearch', { search }) : t('teams.empty')}</p>
        </div>
      ) : (
        <DataTable
          caption={t('teams.caption')}
          className="min-w-[60rem]"
          frameClassName="rounded-lg"
          rows={items}
          rowKey={(team) => team.id}
          rowProps={() => ({ 'data-testid': 'admin-team-row', className: 'align-top' })}
          columns={[
            {
              header: t('teams.columns.team'),
              rowHeader: true,
              className: 'min-w-36',
              cell: (team) => (
                <>
                  <span className="font-medium break-words">{team.name}</span>
                  <p className="font-mono text-xs text-muted-foreground">{team.id.slice(0, 8)}</p>
                </>
              ),
            },
            {
              header: t('teams.columns.members'),
              cell: (team) => team.memberCount,
              className: 'tabular-nums',
            },
            { header: t('teams.columns.admins'), cell: (team) => <Admins team={team} /> },
            {
              header: t('teams.columns.plan'),
              cell: (team) => (
                <PlanSelect
                  context="team"
                  plan={team.plan}
                  label={t('teams.planFor', { name: team.name })}
                  disabled={setPlan.isPending}
                  onChange={(plan) => changePlan(team, plan)}
                />
              ),
            },
            {
              header: t('teams.columns.prompts'),
              cell: (team) => team.promptCount,
              className: 'tabular-nums',
            },
            {
              header: t('teams.columns.conversations'),
              cell: (team) => team.conversationCount,
              className: 'tabular-nums',
            },
            {
              header: t('teams.columns.created'),
              cell: (team) => formatDate(team.createdAt),
              className: 'whitespace-nowrap',
            },
            {
              header: t('teams.columns.actions'),
              alignEnd: true,
              className: 'whitespace-nowrap',
              cell: (team) => (
                <Button size="sm" variant="outline" asChild>
                  <Link to={`/team/${team.id}/manage`} aria-label={t('teams.manageFor', { name: team.name })}>
                    <Settings2 />
                    {t('teams.manage')}
                  </Link>
                </Button>
              ),
            },
          ]}
        />
      )}
      {teams.hasNextPage && (
        <Button
          variant="outline"
          size="sm"
          disabled={teams.isFetchingNextPage}
          onClick={() => void teams.fetchNextPage()}
        >
          {teams.isFetchingNextPage ? t('users.loadingMore') : t('users.loadMore')}
        </Button>
      )}
    </div>
  )
}
