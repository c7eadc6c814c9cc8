import { Eye } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { PromptVersion } from '../../../domain/prompts.ts'
import { formatLongDateTime } from '../../../domain/time.ts'
import { Button } from '../../components/ui/button.tsx'
import { CodeBlock } from '../../components/ui/code-block.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../components/ui/dialog.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { CopyButton } from './copy-button.tsx'

/** 'View' on a history entry: the version's whole body in a dialog. */
export function ViewVersionButton({ version }: { version: PromptVersion }) {
  const { t } = useTranslation('prompts')
  const title = t('detail.version', { number: version.versionNumber })
  return (
    <Dialog>
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
        <CodeBlock label={title} className="max-h-[60dvh]">
          {version.body}
        </CodeBlock>
        <DialogFooter>
          <CopyButton kind="version" text={version.body} />
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
