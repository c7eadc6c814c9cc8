import { CircleCheck, LogOut, ShieldCheck, Users } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { isUuid } from '../../domain/ids.ts'
import type { TeamDetail } from '../../domain/teams.ts'
import { ConfirmAction } from '../components/confirm-action.tsx'
import { EmptyState } from '../components/empty-state.tsx'
import { BackLink, PageHeader } from '../components/page-header.tsx'
import { Button } from '../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card.tsx'
import { LoadingSkeletons, Skeleton } from '../components/ui/skeleton.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs.tsx'
import { toast } from '../components/ui/toast.tsx'
import { AuditLogPanel } from '../features/audit/index.ts'
import { useCurrentUser } from '../features/auth/index.ts'
import { DeleteTeamCard } from '../features/data-rights/index.ts'
import { ProtectedLabelsCard } from '../features/prompts/index.ts'
import {
  InvitationsList,
  InviteForm,
  MembersList,
  TeamSettings,
  useIsOnlyAdmin,
  useLeaveTeam,
  useTeam,
} from '../features/teams/index.ts'
import { errorText } from '../lib/api.ts'
import { useDocumentTitle } from '../lib/use-document-title.ts'

/** /team/:teamId/manage (and #invites, which opens the invitations). */
export function TeamManagePage() {
  const { teamId } = useParams()
  if (!isUuid(teamId)) return <InvalidTeamId />
  return <TeamManagement key={teamId} teamId={teamId} />
}

function InvalidTeamId() {
  const { t } = useTranslation('teams')
  useDocumentTitle(t('manage.invalidId'))
  return (
    <EmptyState
      heading="h1"
      title={t('manage.invalidId')}
      text={t('manage.invalidIdText')}
      className="mx-auto mt-10 max-w-md"
      actions={
        <Button asChild>
          <Link to="/">{t('manage.goHome')}</Link>
        </Button>
      }
    />
  )
}

/** Back to the dashboard; a global admin from outside the team came from the admin's team list. */
function BackToDashboard({ team }: { team?: TeamDetail }) {
  const { t } = useTranslation('teams')
  if (team && team.role === null) {
    return (
      <BackLink to="/admin?tab=teams" className="mb-4">
        {t('manage.backToAdminTeams')}
      </BackLink>
    )
  }
  return (
    <BackLink to="/dashboard" className="mb-4">
      {t('manage.backToDashboard')}
    </BackLink>
  )
}

const sectionTabs: Record<string, string> = { '#invites': 'members', '#protected-labels': 'settings' }

function TeamManagement({ teamId }: { teamId: string }) {
  const { t } = useTranslation('teams')
  const navigate = useNavigate()
  const location = useLocation()
  const team = useTeam(teamId)
  const [tab, setTab] = useState('members')
  useDocumentTitle(team.data?.name ?? t('manage.subtitle'))

  // The spec: 'Failed to load team information', then home.
  useEffect(() => {
    if (!team.isError) return
    toast({ title: t('manage.loadFailed'), description: errorText(team.error, ''), tone: 'error' })
    navigate('/', { replace: true })
  }, [team.isError, team.error, navigate, t])

  const loaded = team.isSuccess
  // Links land on a part of the page: the invitations (members tab) or the protected labels (settings tab).
  useEffect(() => {
    const section = sectionTabs[location.hash]
    if (!loaded || !section) return
    setTab(section)
    requestAnimationFrame(() =>
      document.getElementById(location.hash.slice(1))?.scrollIntoView({ block: 'start' }),
    )
  }, [loaded, location.hash])

  if (!team.data) {
    return (
      <>
        <BackToDashboard />
        <LoadingSkeletons label={t('manage.loading')} className="space-y-4">
          <Skeleton className="h-8 w-64 max-w-full" />
          <div className="grid grid-cols-3 gap-2 sm:gap-3">
            <Skeleton className="h-24" />
            <Skeleton className="h-24" />
            <Skeleton className="h-24" />
          </div>
        </LoadingSkeletons>
      </>
    )
  }
  return (
    <>
      <BackToDashboard team={team.data} />
      <PageHeader
        title={team.data.name}
        description={t('manage.subtitle')}
        actions={team.data.role && <LeaveTeamButton team={team.data} />}
      />
      <SummaryCards team={team.data} />
      <Tabs value={tab} onValueChange={setTab} className="mt-6">
        <TabsList>
          <TabsTrigger value="members">{t('manage.tabs.members')}</TabsTrigger>
          <TabsTrigger value="settings">{t('manage.tabs.settings')}</TabsTrigger>
          {team.data.access.manage_team && (
            <TabsTrigger value="activity">{t('manage.tabs.activity')}</TabsTrigger>
          )}
        </TabsList>
        <TabsContent value="members" className="mt-4 space-y-4">
          <MembersTab team={team.data} />
        </TabsContent>
        <TabsContent value="settings" className="mt-4 space-y-4">
          <TeamSettings team={team.data} />
          <div id="protected-labels" className="scroll-mt-20">
            <ProtectedLabelsCard teamId={team.data.id} editable={team.data.access.manage_team} />
          </div>
          {team.data.access.manage_team && <DeleteTeamCard team={team.data} />}
        </TabsContent>
        {team.data.access.manage_team && (
          <TabsContent value="activity" className="mt-4">
            <AuditLogPanel scope="team" teamId={team.data.id} />
          </TabsContent>
        )}
      </Tabs>
    </>
  )
}

function SummaryCard({ icon, label, value }: { icon: ReactNode; label: string; value: ReactNode }) {
  return (
    <Card className="flex items-center gap-4 p-3 sm:p-5">
      <span className="hidden size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground sm:flex [&_svg]:size-5">
        {icon}
      </span>
      <div className="min-w-0">
        <p className="truncate text-xs text-muted-foreground sm:text-sm">{label}</p>
        <p className="truncate text-base font-semibold sm:text-xl">{value}</p>
      </div>
    </Card>
  )
}

function SummaryCards({ team }: { team: TeamDetail }) {
  const { t } = useTranslation('teams')
  return (
    <div className="grid grid-cols-3 gap-2 sm:gap-3">
      <SummaryCard icon={<Users />} label={t('manage.membersCard')} value={team.memberCount} />
      <SummaryCard icon={<CircleCheck />} label={t('manage.statusCard')} value={t('manage.active')} />
      <SummaryCard
        icon={<ShieldCheck />}
        label={t('manage.yourRole')}
        value={team.role ? t(`roles.${team.role}`) : t('roles.globalAdmin')}
      />
    </div>
  )
}

function MembersTab({ team }: { team: TeamDetail }) {
  const { t } = useTranslation('teams')
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>{t('members.title')}</CardTitle>
          <CardDescription>{t('members.description')}</CardDescription>
        </CardHeader>
        <CardContent>
          <MembersList teamId={team.id} access={team.access} />
        </CardContent>
      </Card>
      {team.access.invite_members && (
        <Card>
          <CardHeader>
            <CardTitle>{t('invite.title')}</CardTitle>
            <CardDescription>{t('invite.description')}</CardDescription>
          </CardHeader>
          <CardContent>
            <InviteForm teamId={team.id} />
          </CardContent>
        </Card>
      )}
      <Card id="invites" className="scroll-mt-20">
        <CardHeader>
          <CardTitle>{t('invitations.title')}</CardTitle>
          <CardDescription>{t('invitations.description')}</CardDescription>
        </CardHeader>
        <CardContent>
          <InvitationsList teamId={team.id} access={team.access} />
        </CardContent>
      </Card>
    </>
  )
}

function LeaveTeamButton({ team }: { team: TeamDetail }) {
  const { t } = useTranslation('teams')
  const navigate = useNavigate()
  const leave = useLeaveTeam(team.id)
  const onlyAdmin = useIsOnlyAdmin(team.id, useCurrentUser().id)
  return (
    <div className="flex flex-col items-end gap-1">
      <ConfirmAction
        variant="outline"
        size="md"
        icon={<LogOut />}
        disabled={onlyAdmin}
        describedBy={onlyAdmin ? 'only-admin-leave' : undefined}
        action={leave}
        onDone={() => navigate('/team', { replace: true })}
        texts={{
          action: t('manage.leave'),
          actionLabel: t('manage.leave'),
          title: t('manage.leaveTitle', { name: team.name }),
          text: t('manage.leaveText'),
          done: t('manage.left', { name: team.name }),
          failed: t('manage.leaveFailed'),
        }}
      />
      {onlyAdmin && (
        <p id="only-admin-leave" className="max-w-64 text-right text-xs text-muted-foreground">
          {t('manage.onlyAdminLeave')}
        </p>
      )}
    </div>
  )
}
