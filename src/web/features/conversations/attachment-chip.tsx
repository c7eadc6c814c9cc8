import { FileText, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Tooltip } from '../../components/ui/tooltip.tsx'

const chip =
  'inline-flex max-w-full items-center gap-1.5 rounded-full border bg-card py-0.5 pl-2 text-xs font-medium'

/** 'v3' for a version, 'latest' when attached without one. */
function VersionLabel({ versionNumber }: { versionNumber: number | null }) {
  const { t } = useTranslation('conversations')
  return (
    <span className="rounded bg-muted px-1 text-[0.7rem] text-muted-foreground">
      {versionNumber === null ? t('messages.latest') : t('messages.version', { number: versionNumber })}
    </span>
  )
}

/**
 * An attached prompt: a link to /prompts/{id} with its version label, or 'Prompt' when the viewer
 * may no longer see it (the server then sends neither its id nor its title). `onRemove` adds the
 * remove button.
 */
export function AttachmentChip({
  promptId,
  title,
  versionNumber,
  onRemove,
}: {
  promptId: string | null
  title: string | null
  versionNumber: number | null
  onRemove?: () => void
}) {
  const { t } = useTranslation('conversations')
  const name = title ?? t('messages.unavailablePrompt')
  return (
    <span className={`${chip} ${onRemove ? 'pr-0.5' : 'pr-2'}`}>
      <FileText aria-hidden className="size-3.5 shrink-0 text-primary" />
      {promptId === null ? (
        <Tooltip content={t('messages.unavailableHint')}>
          <button type="button" className="cursor-help text-muted-foreground">
            {name}
          </button>
        </Tooltip>
      ) : (
        <Link to={`/prompts/${promptId}`} className="truncate hover:underline">
          {name}
        </Link>
      )}
      <VersionLabel versionNumber={versionNumber} />
      {onRemove && (
        <button
          type="button"
          onClick={onRemove}
          aria-label={t('messages.removeAttachment', { title: name })}
          className="cursor-pointer rounded-full p-0.5 text-muted-foreground hover:bg-muted hover:text-foreground"
        >
          <X aria-hidden className="size-3" />
        </button>
      )}
    </span>
  )
}
