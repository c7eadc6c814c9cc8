import {
  ArrowRight,
  Bug,
  Crown,
  MailPlus,
  MessagesSquare,
  RefreshCw,
  ScrollText,
  ShieldQuestion,
} from 'lucide-react'
import type { ComponentType, ReactNode } from 'react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { TeamSummary } from '../../domain/teams.ts'
import { formatShortDate } from '../../domain/time.ts'
import { PageHeader } from '../components/page-header.tsx'
import { RetryAlert } from '../components/ui/alert.tsx'
import { Badge } from '../components/ui/badge.tsx'
import { Button } from '../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card.tsx'
import { LoadingSkeletons, Skeleton } from '../components/ui/skeleton.tsx'
import { toast } from '../components/ui/toast.tsx'
import { useCurrentUser } from '../features/auth/index.ts'
import { CreateTeamDialog, useMyTeams, useRefreshAuth } from '../features/teams/index.ts'
import { currentLanguage } from '../i18n/index.ts'
import { errorText } from '../lib/api.ts'
import { useDocumentTitle } from '../lib/use-document-title.ts'

/** /team: the teams the user administers (with Manage Team), the others they belong to, quick actions. */
export function TeamPage() {
  const { t } = useTranslation('teams')
  const user = useCurrentUser()
  const teams = useMyTeams()
  useDocumentTitle(t('list.title'))
  const adminTeams = teams.data?.filter((team) => team.isAdmin) ?? []
  const memberTeams = teams.data?.filter((team) => !team.isAdmin) ?? []

  return (
    <>
      <PageHeader
        title={t('list.title')}
        description={t('list.subtitle')}
        actions={
          <>
            <RefreshAuthButton />
            {user.globalRole === 'global_admin' && (
              <Button variant="ghost" asChild>
                <Link to="/debug-auth">
                  <Bug />
                  {t('list.debugAuth')}
                </Link>
              </Button>
            )}
            <CreateTeamDialog />
          </>
        }
      />
      {teams.isPending ? (
        <LoadingSkeletons label={t('list.loading')} className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Skeleton className="h-32" />
          <Skeleton className="h-32" />
        </LoadingSkeletons>
      ) : teams.isError ? (
        <RetryAlert title={t('list.loadFailed')} onRetry={() => teams.refetch()}>
          {errorText(teams.error, '')}
        </RetryAlert>
      ) : (
        <div className="space-y-8">
          {adminTeams.length > 0 ? (
            <TeamSection title={t('list.adminTeams')} teams={adminTeams} />
          ) : (
            <NoAdminTeams />
          )}
          {memberTeams.length > 0 && <TeamSection title={t('list.memberTeams')} teams={memberTeams} />}
          <QuickActions firstAdminTeam={adminTeams[0]} />
        </div>
      )}
    </>
  )
}

/** 'Refresh Auth': renews the session and reloads the teams (e.g. after being made admin). */
function RefreshAuthButton() {
  const { t } = useTranslation('teams')
  const refreshAuth = useRefreshAuth()
  const [busy, setBusy] = useState(false)
  const refresh = async () => {
    setBusy(true)
    try {
      await refreshAuth()
      toast({ title: t('list.refreshed'), tone: 'success' })
    } catch (error) {
      toast({ title: t('list.refreshFailed'), description: errorText(error, ''), tone: 'error' })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant="outline" onClick={refresh} disabled={busy}>
      <RefreshCw className={busy ? 'animate-spin' : undefined} />
      {t('list.refreshAuth')}
    </Button>
  )
}

function TeamSection({ title, teams }: { title: string; teams: TeamSummary[] }) {
  const { t } = useTranslation('teams')
  return (
    <section aria-label={title} className="space-y-3">
      <h2 className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">{title}</h2>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {teams.map((team) => (
          <li key={team.id}>
            <Card className="flex h-full flex-col">
              <CardHeader>
                <CardTitle className="flex items-start gap-2">
                  <span className="min-w-0 wrap-anywhere">{team.name}</span>
                  {team.isAdmin && (
                    <Crown
                      role="img"
                      aria-label={t('roles.admin')}
                      className="mt-0.5 size-4 shrink-0 text-warning"
                    />
                  )}
                </CardTitle>
                <CardDescription>
                  {t('memberCount', { count: team.memberCount })} ·{' '}
                  {t('list.createdOn', { date: formatShortDate(team.createdAt, currentLanguage()) })}
                </CardDescription>
              </CardHeader>
              <CardContent className="mt-auto flex items-center justify-between gap-2">
                <Badge variant={team.isAdmin ? 'primary' : 'default'}>{t(`roles.${team.role}`)}</Badge>
                <Button size="sm" variant={team.isAdmin ? 'primary' : 'outline'} asChild>
                  <Link
                    to={`/team/${team.id}/manage`}
                    aria-label={`${team.isAdmin ? t('list.manageTeam') : t('list.viewTeam')}: ${team.name}`}
                  >
                    {team.isAdmin ? t('list.manageTeam') : t('list.viewTeam')}
                    <ArrowRight />
                  </Link>
                </Button>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  )
}

function NoAdminTeams() {
  const { t } = useTranslation('teams')
  const abilities = t('list.adminAbilities', { returnObjects: true }) as string[]
  return (
    <Card>
      <CardContent className="flex flex-col gap-4 pt-5 sm:flex-row">
        <ShieldQuestion aria-hidden className="size-10 shrink-0 text-muted-foreground" />
        <div className="space-y-3">
          <div className="space-y-1">
            <h2 className="font-semibold">{t('list.noAdminTitle')}</h2>
            <p className="text-sm text-muted-foreground">{t('list.noAdminText')}</p>
          </div>
          <div>
            <p className="text-sm font-medium">{t('list.adminCan')}</p>
            <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-muted-foreground">
              {abilities.map((ability) => (
                <li key={ability}>{ability}</li>
              ))}
            </ul>
          </div>
          <CreateTeamDialog variant="outline" />
        </div>
      </CardContent>
    </Card>
  )
}

function QuickAction({
  to,
  icon: Icon,
  title,
  text,
}: {
  to: string | null
  icon: ComponentType<{ className?: string }>
  title: string
  text: ReactNode
}) {
  const body = (
    <>
      <Icon aria-hidden className="size-5 text-primary" />
      <span className="font-medium">{title}</span>
      <span className="text-sm text-muted-foreground">{text}</span>
    </>
  )
  return (
    <li>
      {/* Unavailable: dashed and flat, with its text at full contrast (no fading). */}
      <Card
        className={
          to ? 'h-full transition-colors hover:border-primary/50' : 'h-full border-dashed shadow-none'
        }
      >
        {to ? (
          <Link to={to} className="flex h-full flex-col gap-2 p-5">
            {body}
          </Link>
        ) : (
          <div className="flex h-full flex-col gap-2 p-5">{body}</div>
        )}
      </Card>
    </li>
  )
}

function QuickActions({ firstAdminTeam }: { firstAdminTeam: TeamSummary | undefined }) {
  const { t } = useTranslation('teams')
  return (
    <section aria-label={t('list.quickActions')} className="space-y-3">
      <h2 className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
        {t('list.quickActions')}
      </h2>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <QuickAction
          to={firstAdminTeam ? `/team/${firstAdminTeam.id}/manage#invites` : null}
          icon={MailPlus}
          title={t('list.quick.invite')}
          text={firstAdminTeam ? t('list.quick.inviteText') : t('list.quick.inviteNoTeam')}
        />
        <QuickAction
          to="/prompts/new"
          icon={ScrollText}
          title={t('list.quick.prompt')}
          text={t('list.quick.promptText')}
        />
        <QuickAction
          to="/conversations"
          icon={MessagesSquare}
          title={t('list.quick.conversation')}
          text={t('list.quick.conversationText')}
        />
      </ul>
    </section>
  )
}
