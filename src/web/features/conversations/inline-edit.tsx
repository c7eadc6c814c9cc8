import { Check, Pencil, X } from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/button.tsx'
import { Input } from '../../components/ui/input.tsx'
import { cn } from '../../lib/cn.ts'

/**
 * Click-to-edit text: Enter saves, Escape cancels; the check and
 * cross buttons do the same for pointer users. `onSave` answers the error to show, or null when
 * editing is done (also when nothing changed and nothing was sent).
 */
export function InlineEdit({
  draft,
  display,
  label,
  editLabel,
  placeholder,
  className,
  inputClassName,
  onSave,
  wrap = (content) => content,
}: {
  draft: string
  display: ReactNode
  label: string
  editLabel: string
  placeholder?: string
  className?: string
  inputClassName?: string
  onSave: (text: string) => Promise<string | null>
  /** Puts the displayed value in its context, e.g. inside the page's h1. */
  wrap?: (content: ReactNode) => ReactNode
}) {
  const { t } = useTranslation('conversations')
  const id = useId()
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(draft)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  const start = () => {
    setText(draft)
    setError(null)
    setEditing(true)
  }
  const save = async () => {
    if (saving) return
    setSaving(true)
    const problem = await onSave(text).finally(() => setSaving(false))
    setError(problem)
    if (!problem) setEditing(false)
  }

  if (!editing) {
    return (
      <div className={cn('group flex max-w-full min-w-0 items-center gap-1', className)}>
        {wrap(
          // Clicking the text is the pointer shortcut; the pencil button is the keyboard way in.
          // biome-ignore lint/a11y/useKeyWithClickEvents: the button beside it handles the keyboard
          // biome-ignore lint/a11y/noStaticElementInteractions: see above
          <span
            onClick={start}
            title={editLabel}
            className="min-w-0 cursor-text rounded-md hover:bg-muted/60"
          >
            {display}
          </span>,
        )}
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={editLabel}
          onClick={start}
          className="shrink-0 text-muted-foreground opacity-70 group-hover:opacity-100"
        >
          <Pencil />
        </Button>
      </div>
    )
  }

  return (
    <div className={cn('w-full space-y-1', className)}>
      <div className="flex items-center gap-1.5">
        <Input
          autoFocus
          value={text}
          placeholder={placeholder}
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint`}
          disabled={saving}
          className={inputClassName}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
              event.preventDefault()
              void save()
            } else if (event.key === 'Escape') {
              event.preventDefault()
              event.stopPropagation()
              setEditing(false)
            }
          }}
        />
        <Button size="icon-sm" aria-label={t('detail.save')} disabled={saving} onClick={() => void save()}>
          <Check />
        </Button>
        <Button
          size="icon-sm"
          variant="ghost"
          aria-label={t('detail.cancel')}
          disabled={saving}
          onClick={() => setEditing(false)}
        >
          <X />
        </Button>
      </div>
      {error ? (
        <p id={`${id}-hint`} role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {t('detail.editHint')}
        </p>
      )}
    </div>
  )
}
