import { useQuery } from '@tanstack/react-query'
import { Eye } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PromptType } from '../../../domain/prompt-names.ts'
import type { VersionSummary } from '../../../domain/prompts.ts'
import { formatLongDateTime } from '../../../domain/time.ts'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { CodeBlock } from '../../components/ui/code-block.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../components/ui/dialog.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { PromptBodyView } from './chat-editor.tsx'
import { CopyButton } from './copy-button.tsx'
import { promptVersionQuery } from './queries.ts'

/** 'View' on a history entry: the version's whole body in a dialog, fetched when it opens. */
export function ViewVersionButton({
  promptId,
  type,
  version,
}: {
  promptId: string
  type: PromptType
  version: VersionSummary
}) {
  const { t } = useTranslation('prompts')
  const [open, setOpen] = useState(false)
  const full = useQuery({ ...promptVersionQuery(promptId, version.id), enabled: open })
  const title = t('detail.version', { number: version.versionNumber })
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`${t('detail.view')}: ${title}`}>
          <Eye aria-hidden />
          {t('detail.view')}
        </Button>
      </DialogTrigger>
      <DialogContent
        title={title}
        description={[formatLongDateTime(version.createdAt, currentLanguage()), version.changelog]
          .filter(Boolean)
          .join(' · ')}
        className="max-w-2xl"
      >
        {full.isPending ? (
          <Spinner label={t('detail.loadingVersion')} />
        ) : full.isError ? (
          <RetryAlert
            title={errorText(full.error, t('detail.versionFailed'))}
            onRetry={() => full.refetch()}
          />
        ) : (
          <div className="max-h-[60dvh] overflow-y-auto">
            {type === 'chat' ? (
              <PromptBodyView type="chat" body={full.data.body} />
            ) : (
              <CodeBlock label={title}>{full.data.body}</CodeBlock>
            )}
          </div>
        )}
        <DialogFooter>{full.data && <CopyButton kind="version" text={full.data.body} />}</DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
