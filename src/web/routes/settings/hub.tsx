import {
  Bot,
  ChevronRight,
  Database,
  KeyRound,
  type LucideIcon,
  ShieldCheck,
  User,
  Webhook,
} from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PageHeader } from '../../components/page-header.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { useMyTeams } from '../../features/teams/index.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

interface Entry {
  to: string
  icon: LucideIcon
  title: string
  text: string
}

function EntryList({ label, entries }: { label: string; entries: Entry[] }) {
  return (
    <ul className="divide-y rounded-lg border" aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.to}>
          <Link
            to={entry.to}
            className="flex items-center gap-3 p-4 transition-colors hover:bg-muted focus-visible:bg-muted"
          >
            <entry.icon aria-hidden className="size-5 shrink-0 text-muted-foreground" />
            <span className="min-w-0 flex-1">
              <span className="block font-medium">{entry.title}</span>
              <span className="block text-sm text-muted-foreground">{entry.text}</span>
            </span>
            <ChevronRight aria-hidden className="size-4 shrink-0 text-muted-foreground" />
          </Link>
        </li>
      ))}
    </ul>
  )
}

/** /settings: every setting in one place: the user's own, then those of each team they administer. */
export function SettingsHubPage() {
  const { t } = useTranslation('account')
  useDocumentTitle(t('settings.title'))
  const teams = useMyTeams()
  const adminTeams = (teams.data ?? []).filter((team) => team.isAdmin)
  const personal: Entry[] = [
    {
      to: '/settings/profile',
      icon: User,
      title: t('settings.pages.profile'),
      text: t('settings.profileText'),
    },
    {
      to: '/settings/api',
      icon: KeyRound,
      title: t('settings.pages.apiKeys'),
      text: t('settings.apiKeysText'),
    },
    {
      to: '/settings/webhooks',
      icon: Webhook,
      title: t('settings.pages.webhooks'),
      text: t('settings.webhooksText'),
    },
    { to: '/settings/models', icon: Bot, title: t('settings.pages.models'), text: t('settings.modelsText') },
    { to: '/settings/data', icon: Database, title: t('settings.pages.data'), text: t('settings.dataText') },
  ]
  return (
    <>
      <PageHeader title={t('settings.title')} description={t('settings.description')} />
      <div className="space-y-6">
        <EntryList label={t('settings.personal')} entries={personal} />
        {adminTeams.map((team) => (
          <Card key={team.id} role="region" aria-label={t('settings.teamTitle', { name: team.name })}>
            <CardHeader>
              <CardTitle>{t('settings.teamTitle', { name: team.name })}</CardTitle>
            </CardHeader>
            <CardContent>
              <EntryList
                label={t('settings.teamTitle', { name: team.name })}
                entries={[
                  {
                    to: `/settings/api?team=${team.id}`,
                    icon: KeyRound,
                    title: t('settings.teamApiKeys'),
                    text: t('settings.teamApiKeysText'),
                  },
                  {
                    to: `/settings/webhooks?team=${team.id}`,
                    icon: Webhook,
                    title: t('settings.teamWebhooks'),
                    text: t('settings.teamWebhooksText'),
                  },
                  {
                    to: `/settings/models?team=${team.id}`,
                    icon: Bot,
                    title: t('settings.teamModels'),
                    text: t('settings.teamModelsText'),
                  },
                  {
                    to: `/team/${team.id}/manage#protected-labels`,
                    icon: ShieldCheck,
                    title: t('settings.protectedLabels'),
                    text: t('settings.protectedLabelsText'),
                  },
                ]}
              />
            </CardContent>
          </Card>
        ))}
      </div>
    </>
  )
}
