import { History } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { historyPreview, type PromptVersion } from '../../../domain/prompts.ts'
import { formatLongDateTime } from '../../../domain/time.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { cn } from '../../lib/cn.ts'
import { CopyButton } from './copy-button.tsx'

/**
 * The 'Version history' card of the detail and edit pages: each version's number, date, changelog
 * and preview, a copy button, and the actions that the page chooses.
 */
export function VersionHistoryCard({
  versions,
  currentVersionId,
  actions,
  className,
}: {
  versions: PromptVersion[]
  currentVersionId: string | null
  actions: (version: PromptVersion) => ReactNode
  className?: string
}) {
  const { t } = useTranslation('prompts')
  return (
    <Card role="region" aria-label={t('detail.versionHistory')} className={cn('min-w-0', className)}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <History aria-hidden className="size-4 text-muted-foreground" />
          {t('detail.versionHistory')}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <VersionList versions={versions} currentVersionId={currentVersionId} actions={actions} />
      </CardContent>
    </Card>
  )
}

function VersionList({
  versions,
  currentVersionId,
  actions,
}: {
  versions: PromptVersion[]
  currentVersionId: string | null
  actions: (version: PromptVersion) => ReactNode
}) {
  const { t } = useTranslation('prompts')
  return (
    <ol className="divide-y">
      {versions.map((version) => {
        const title = t('detail.version', { number: version.versionNumber })
        return (
          <li key={version.id} aria-label={title} className="space-y-2 py-4 first:pt-0 last:pb-0">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <h3 className="text-sm font-semibold">{title}</h3>
              {version.id === currentVersionId && <Badge variant="success">{t('detail.current')}</Badge>}
              <time dateTime={version.createdAt} className="text-xs text-muted-foreground">
                {formatLongDateTime(version.createdAt, currentLanguage())}
              </time>
            </div>
            {version.changelog && <p className="text-sm">{version.changelog}</p>}
            <p className="font-mono text-xs break-words whitespace-pre-wrap text-muted-foreground">
              {historyPreview(version.body)}
            </p>
            <div className="flex flex-wrap gap-2">
              <CopyButton kind="version" text={version.body} />
              {actions(version)}
            </div>
          </li>
        )
      })}
    </ol>
  )
}
