import { ArrowRight, Mail, Users } from 'lucide-react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { TeamSummary } from '../../../domain/teams.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Select } from '../../components/ui/input.tsx'
import { Skeleton } from '../../components/ui/skeleton.tsx'
import { InviteForm } from './invite-form.tsx'
import { useMyTeams, useTeam } from './queries.ts'
import { TeamOptions } from './team-options.tsx'

/** The spec's local-storage key for the dashboard's context. */
const DASHBOARD_TEAM_KEY = 'dashboard.teamId'

function readStoredTeamId(): string | null {
  try {
    return localStorage.getItem(DASHBOARD_TEAM_KEY)
  } catch {
    return null
  }
}

/**
 * The dashboard's context: Personal (null) or one of the user's teams, remembered across visits.
 * A remembered team the user no longer belongs to falls back to Personal.
 */
export function useDashboardTeam() {
  const teams = useMyTeams()
  const [stored, setStored] = useState(readStoredTeamId)
  const team = teams.data?.find((candidate) => candidate.id === stored) ?? null
  const select = (teamId: string | null) => {
    try {
      if (teamId) localStorage.setItem(DASHBOARD_TEAM_KEY, teamId)
      else localStorage.removeItem(DASHBOARD_TEAM_KEY)
    } catch {
      // not remembered; the choice still applies to this visit
    }
    setStored(teamId)
  }
  // While a remembered team is being checked the context is not known yet: show neither label.
  const settled = stored === null || !teams.isPending
  return { teams: teams.data ?? [], team, select, settled, failed: teams.isError }
}

export function DashboardContextLabel({ team, settled }: { team: TeamSummary | null; settled: boolean }) {
  const { t } = useTranslation('teams')
  // A span: the label sits inside the page header's paragraph.
  if (!settled)
    return <span aria-hidden className="inline-block h-5 w-24 animate-pulse rounded-full bg-muted" />
  return (
    <Badge variant={team ? 'primary' : 'outline'}>
      {team ? t('dashboard.teamContext') : t('dashboard.personalContext')}
    </Badge>
  )
}

/** Personal plus the user's teams. */
export function DashboardContextSelector({
  teams,
  team,
  onSelect,
}: {
  teams: TeamSummary[]
  team: TeamSummary | null
  onSelect: (teamId: string | null) => void
}) {
  const { t } = useTranslation('teams')
  const id = useId()
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="text-muted-foreground">
        {t('dashboard.context')}
      </label>
      <div className="w-48 max-w-[60vw]">
        <Select id={id} value={team?.id ?? ''} onChange={(event) => onSelect(event.target.value || null)}>
          <TeamOptions teams={teams} noneLabel={t('dashboard.personal')} />
        </Select>
      </div>
    </div>
  )
}

function Stat({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="rounded-lg border bg-muted/30 p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold">{value ?? <Skeleton className="mt-1 h-7 w-10" />}</dd>
    </div>
  )
}

/** Team context: the team at a glance; its admins also get Members, Pending Invites and Quick Invite. */
export function DashboardTeamCard({ team }: { team: TeamSummary }) {
  const { t } = useTranslation('teams')
  const isAdmin = team.access.invite_members
  const detail = useTeam(team.id, { enabled: isAdmin })
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle className="flex min-w-0 items-center gap-2">
          <Users aria-hidden className="size-4 shrink-0 text-primary" />
          <span className="truncate">{team.name}</span>
          <Badge>{t(`roles.${team.role}`)}</Badge>
        </CardTitle>
        <Button variant="ghost" size="sm" asChild>
          <Link to={`/team/${team.id}/manage`}>
            {isAdmin ? t('dashboard.manage') : t('list.viewTeam')}
            <ArrowRight />
          </Link>
        </Button>
      </CardHeader>
      <CardContent className="space-y-4">
        {isAdmin ? (
          <>
            <dl className="grid grid-cols-2 gap-3">
              <Stat label={t('dashboard.membersCount')} value={detail.data?.memberCount} />
              <Stat label={t('dashboard.pendingInvites')} value={detail.data?.pendingInvitationCount} />
            </dl>
            <div className="space-y-2">
              <h3 className="flex items-center gap-1.5 text-sm font-medium">
                <Mail aria-hidden className="size-4 text-muted-foreground" />
                {t('dashboard.quickInvite')}
              </h3>
              <InviteForm teamId={team.id} compact />
            </div>
          </>
        ) : (
          <p className="text-sm text-muted-foreground">{t('memberCount', { count: team.memberCount })}</p>
        )}
      </CardContent>
    </Card>
  )
}
