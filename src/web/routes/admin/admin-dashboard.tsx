import { Activity, ClipboardCheck, Mail, ShieldCheck, Users, UsersRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { PageHeader } from '../../components/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import { SystemHealthPanel, SystemStatsPanel, TeamsTable, UsersTable } from '../../features/admin/index.ts'
import { AuditLogPanel } from '../../features/audit/index.ts'
import { useCurrentUser } from '../../features/auth/index.ts'
import { PlanModeNotice } from '../../features/plans/index.ts'
import { useScreenTitle } from '../placeholder.tsx'
import { EmailDebugTool } from './email-debug.tsx'

const tabs = ['users', 'teams', 'health', 'email', 'audit'] as const
type Tab = (typeof tabs)[number]
const isTab = (value: string | null): value is Tab => tabs.includes(value as Tab)

/**
 * /admin (global admins): live figures, users and roles, every team, system health, the email tool
 * and the audit log. The tab is in the address (`?tab=teams`), so coming back from a team's page
 * returns to the list.
 */
export function AdminDashboardPage() {
  const title = useScreenTitle('admin')
  const { t } = useTranslation('admin')
  const user = useCurrentUser()
  const [params, setParams] = useSearchParams()
  const requested = params.get('tab')
  const tab: Tab = isTab(requested) ? requested : 'users'
  const setTab = (value: string) => setParams(value === 'users' ? {} : { tab: value }, { replace: true })
  return (
    <>
      <PageHeader
        title={title}
        description={t('description')}
        actions={
          <Button variant="outline" asChild>
            <Link to="/build-status">
              <ClipboardCheck />
              {t('buildStatusLink')}
            </Link>
          </Button>
        }
      />
      <PlanModeNotice />
      <SystemStatsPanel />
      <Tabs value={tab} onValueChange={setTab} className="mt-8">
        <TabsList>
          <TabsTrigger value="users">
            <Users aria-hidden className="size-4" />
            {t('tabs.users')}
          </TabsTrigger>
          <TabsTrigger value="teams">
            <UsersRound aria-hidden className="size-4" />
            {t('tabs.teams')}
          </TabsTrigger>
          <TabsTrigger value="health">
            <Activity aria-hidden className="size-4" />
            {t('tabs.health')}
          </TabsTrigger>
          <TabsTrigger value="email">
            <Mail aria-hidden className="size-4" />
            {t('tabs.email')}
          </TabsTrigger>
          <TabsTrigger value="audit">
            <ShieldCheck aria-hidden className="size-4" />
            {t('tabs.audit')}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="users" className="mt-4">
          <Card>
            <CardHeader>
              <CardTitle>{t('users.title')}</CardTitle>
              <CardDescription>{t('users.description')}</CardDescription>
            </CardHeader>
            <CardContent>
              <UsersTable currentUserId={user.id} />
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="teams" className="mt-4">
          <Card>
            <CardHeader>
              <CardTitle>{t('teams.title')}</CardTitle>
              <CardDescription>{t('teams.description')}</CardDescription>
            </CardHeader>
            <CardContent>
              <TeamsTable />
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="health" className="mt-4">
          <SystemHealthPanel />
        </TabsContent>
        <TabsContent value="email" className="mt-4">
          <EmailDebugTool />
        </TabsContent>
        <TabsContent value="audit" className="mt-4">
          <AuditLogPanel scope="global" />
        </TabsContent>
      </Tabs>
    </>
  )
}
