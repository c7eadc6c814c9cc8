import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { historyPreview, type PromptVersion } from '../../../domain/prompts.ts'
import { formatLongDateTime } from '../../../domain/time.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { currentLanguage } from '../../i18n/index.ts'

/** A version's number, date, changelog and preview, with actions that the page chooses. */
export function VersionList({
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
            <div className="flex flex-wrap gap-2">{actions(version)}</div>
          </li>
        )
      })}
    </ol>
  )
}
