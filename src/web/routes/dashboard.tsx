import { useTranslation } from 'react-i18next'
import { PageHeader } from '../components/page-header.tsx'
import { useCurrentUser } from '../features/auth/index.ts'
import {
  AccountWidget,
  ChecklistWidget,
  ContinueWidget,
  CreateWidget,
  ModelUsageWidget,
  PerformanceWidget,
  PulseWidget,
  RecentConversationsWidget,
  RecentPromptsWidget,
  StreakBadge,
  TeamMilestoneWidget,
  TeamPromptsWidget,
  TopPerformersWidget,
  useDashboard,
  useFailureToast,
  WidgetBoundary,
} from '../features/dashboard/index.ts'
import { PlanBanner } from '../features/plans/index.ts'
import {
  DashboardContextLabel,
  DashboardContextSelector,
  DashboardTeamCard,
  useDashboardTeam,
} from '../features/teams/index.ts'
import { useDocumentTitle } from '../lib/use-document-title.ts'

/**
 * Working dashboard at / and /dashboard. The figures of the chosen context come in one request
 * (`useDashboard`); the recent lists use the list operations, so each widget loads, fails and
 * retries on its own, and a widget that breaks while rendering keeps the failure to itself.
 */
export function DashboardPage() {
  const { t } = useTranslation(['pages', 'dashboard'])
  const user = useCurrentUser()
  const context = useDashboardTeam()
  const teamId = context.team?.id ?? null
  // While a remembered team is being checked, the context is not known: nothing is asked yet.
  const query = useDashboard(teamId, { enabled: context.settled })
  useFailureToast(context.failed, t('dashboard:toast.teamsFailed'))
  useDocumentTitle(t('screens.dashboard'))
  const boundary = (title: string, widget: React.ReactNode) => (
    <WidgetBoundary title={title}>{widget}</WidgetBoundary>
  )
  return (
    <>
      <PageHeader
        title={t('dashboard.welcome', { name: user.name || user.email })}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <DashboardContextLabel team={context.team} settled={context.settled} />
            <StreakBadge streak={query.data?.streak} />
          </span>
        }
        actions={
          <DashboardContextSelector teams={context.teams} team={context.team} onSelect={context.select} />
        }
      />
      {context.settled && <PlanBanner teamId={teamId ?? undefined} className="mb-4" />}
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
        <div className="md:col-span-2 xl:col-span-2">
          {boundary(t('dashboard:continue.title'), <ContinueWidget query={query} />)}
        </div>
        {boundary(t('dashboard:create.title'), <CreateWidget teamId={teamId} />)}
        {boundary(t('dashboard:recentPrompts.title'), <RecentPromptsWidget />)}
        {boundary(t('dashboard:recentConversations.title'), <RecentConversationsWidget />)}
        <div className="space-y-4">
          {boundary(
            t('dashboard:teamPrompts.title'),
            <TeamPromptsWidget teamId={teamId} hasTeams={context.teams.length > 0} />,
          )}
          {context.team && <DashboardTeamCard key={context.team.id} team={context.team} />}
        </div>
        {boundary(t('dashboard:checklist.title'), <ChecklistWidget query={query} userId={user.id} />)}
        {context.team && boundary(t('dashboard:milestone.title'), <TeamMilestoneWidget query={query} />)}
        {boundary(t('dashboard:pulse.title'), <PulseWidget query={query} team={context.team !== null} />)}
        {boundary(t('dashboard:performance.title'), <PerformanceWidget query={query} />)}
        {boundary(t('dashboard:topPerformers.title'), <TopPerformersWidget query={query} />)}
        {boundary(t('dashboard:modelUsage.title'), <ModelUsageWidget query={query} />)}
        {boundary(
          t('dashboard:notifications.title'),
          <AccountWidget isGlobalAdmin={user.globalRole === 'global_admin'} />,
        )}
      </div>
    </>
  )
}
