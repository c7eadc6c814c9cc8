import { History } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { VersionSummary } from '../../../domain/prompts.ts'
import { formatLongDateTime } from '../../../domain/time.ts'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { cn } from '../../lib/cn.ts'
import { CopyButton } from './copy-button.tsx'
import { usePromptVersions, useVersion } from './queries.ts'

/**
 * The 'Version history' card of the detail and edit pages: the newest versions, a page at a time,
 * each with its number, date, changelog and preview, a copy button (the whole body, fetched on
 * demand), and the actions that the page chooses.
 */
export function VersionHistoryCard({
  promptId,
  currentVersionId,
  actions,
  className,
}: {
  promptId: string
  currentVersionId: string | null
  actions: (version: VersionSummary) => ReactNode
  className?: string
}) {
  const { t } = useTranslation('prompts')
  const versions = usePromptVersions(promptId)
  const versionOf = useVersion(promptId)
  const items = versions.data?.pages.flatMap((page) => page.items) ?? []
  return (
    <Card role="region" aria-label={t('detail.versionHistory')} className={cn('min-w-0', className)}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <History aria-hidden className="size-4 text-muted-foreground" />
          {t('detail.versionHistory')}
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {versions.isPending ? (
          <LoadingSkeletons label={t('detail.loadingVersions')} className="space-y-3">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-16 w-full" />
            ))}
          </LoadingSkeletons>
        ) : versions.isError && items.length === 0 ? (
          <RetryAlert
            title={errorText(versions.error, t('detail.versionsFailed'))}
            onRetry={() => versions.refetch()}
          />
        ) : (
          <ol className="divide-y">
            {items.map((version) => {
              const title = t('detail.version', { number: version.versionNumber })
              return (
                <li key={version.id} aria-label={title} className="space-y-2 py-4 first:pt-0 last:pb-0">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <h3 className="text-sm font-semibold">{title}</h3>
                    {version.id === currentVersionId && (
                      <Badge variant="success">{t('detail.current')}</Badge>
                    )}
                    {version.labels
                      .filter((label) => label !== 'production')
                      .map((label) => (
                        <Badge key={label} variant={label === 'latest' ? 'outline' : 'primary'}>
                          {label}
                        </Badge>
                      ))}
                    <time dateTime={version.createdAt} className="text-xs text-muted-foreground">
                      {formatLongDateTime(version.createdAt, currentLanguage())}
                    </time>
                  </div>
                  {version.changelog && <p className="text-sm">{version.changelog}</p>}
                  <p className="font-mono text-xs break-words whitespace-pre-wrap text-muted-foreground">
                    {version.preview}
                  </p>
                  <div className="flex flex-wrap gap-2">
                    <CopyButton kind="version" text={async () => (await versionOf(version.id)).body} />
                    {actions(version)}
                  </div>
                </li>
              )
            })}
          </ol>
        )}
        {versions.hasNextPage && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => versions.fetchNextPage()}
            disabled={versions.isFetchingNextPage}
          >
            {versions.isFetchingNextPage ? t('detail.loadingMoreVersions') : t('detail.loadMoreVersions')}
          </Button>
        )}
      </CardContent>
    </Card>
  )
}
