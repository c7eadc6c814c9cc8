import { useQuery } from '@tanstack/react-query'
import { MessagesSquare } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { PromptVersionUsage } from '../../../domain/conversations.ts'
import { RelativeTime } from '../../components/relative-time.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { promptUsageQuery } from './conversation-queries.ts'

/**
 * "Used in N conversations" for a prompt's detail page: per version (and for "latest"
 * attachments), the conversations the viewer may see, with links. Self-contained: give it the
 * prompt's id.
 */
export function PromptUsagePanel({ promptId }: { promptId: string }) {
  const { t } = useTranslation('conversations')
  const usage = useQuery(promptUsageQuery(promptId))
  return (
    <Card role="region" aria-label={t('usage.title')}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MessagesSquare aria-hidden className="size-4 text-primary" />
          {t('usage.title')}
        </CardTitle>
        {usage.data && (
          <CardDescription>
            {usage.data.conversationCount === 0
              ? t('usage.none')
              : t('usage.summary', { count: usage.data.conversationCount })}
          </CardDescription>
        )}
      </CardHeader>
      <CardContent>
        {usage.isPending ? (
          <LoadingSkeletons label={t('usage.loading')} className="space-y-2">
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-4 w-1/3" />
          </LoadingSkeletons>
        ) : usage.isError ? (
          <RetryAlert title={t('usage.loadError')} onRetry={() => void usage.refetch()} />
        ) : usage.data.conversationCount > 0 ? (
          <ul className="divide-y">
            {usage.data.versions.map((version) => (
              <VersionUsageRow key={version.versionId ?? 'latest'} version={version} />
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  )
}

function VersionUsageRow({ version }: { version: PromptVersionUsage }) {
  const { t } = useTranslation('conversations')
  const hidden = version.conversationCount - version.conversations.length
  return (
    <li className="space-y-1.5 py-2.5 first:pt-0 last:pb-0">
      <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
        <span className="font-medium">
          {version.versionNumber === null
            ? t('usage.latest')
            : t('usage.version', { number: version.versionNumber })}
        </span>
        {version.versionNumber === null && (
          <span className="text-xs text-muted-foreground">({t('usage.latestHint')})</span>
        )}
        <span className="text-muted-foreground">
          {t('usage.summary', { count: version.conversationCount })}
        </span>
      </p>
      {version.conversations.length > 0 && (
        <ul className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
          {version.conversations.map((conversation) => (
            <li key={conversation.id}>
              <Link to={`/conversations/${conversation.id}`} className="text-primary hover:underline">
                {conversation.title}
              </Link>{' '}
              <span className="text-xs text-muted-foreground">
                <RelativeTime value={conversation.updatedAt} />
              </span>
            </li>
          ))}
          {hidden > 0 && <li className="text-muted-foreground">{t('usage.more', { count: hidden })}</li>}
        </ul>
      )}
    </li>
  )
}
