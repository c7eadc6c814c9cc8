import { ArrowRight, MessagesSquare, ScrollText, Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PageHeader, useDocumentTitle } from '../components/page-header.tsx'
import { Card } from '../components/ui/card.tsx'
import { useCurrentUser } from '../features/auth/session.ts'
import {
  DashboardContextLabel,
  DashboardContextSelector,
  DashboardTeamCard,
  useDashboardTeam,
} from '../features/teams/dashboard-context.tsx'

export function DashboardPage() {
  const { t } = useTranslation('pages')
  const user = useCurrentUser()
  const context = useDashboardTeam()
  useDocumentTitle(t('screens.dashboard'))
  const links = [
    { to: '/prompts', label: t('dashboard.promptsLink'), icon: ScrollText },
    { to: '/conversations', label: t('dashboard.conversationsLink'), icon: MessagesSquare },
    { to: '/team', label: t('dashboard.teamLink'), icon: Users },
  ]
  return (
    <>
      <PageHeader
        title={t('dashboard.welcome', { name: user.name || user.email })}
        description={<DashboardContextLabel team={context.team} settled={context.settled} />}
        actions={
          <DashboardContextSelector teams={context.teams} team={context.team} onSelect={context.select} />
        }
      />
      <p className="mb-3 text-sm text-muted-foreground">{t('dashboard.intro')}</p>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {links.map((link) => (
          <Card key={link.to} className="transition-colors hover:border-primary/50">
            <Link to={link.to} className="flex items-center gap-3 p-5">
              <link.icon aria-hidden className="size-5 text-primary" />
              <span className="flex-1 font-medium">{link.label}</span>
              <ArrowRight aria-hidden className="size-4 text-muted-foreground" />
            </Link>
          </Card>
        ))}
      </div>
      {context.team && (
        <div className="mt-6">
          <DashboardTeamCard key={context.team.id} team={context.team} />
        </div>
      )}
    </>
  )
}
