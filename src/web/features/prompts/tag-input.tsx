import { Plus } from 'lucide-react'
import { type KeyboardEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PROMPT_LIMITS } from '../../../domain/prompts.ts'
import { RemovableBadge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Input } from '../../components/ui/input.tsx'
import { message } from '../../i18n/index.ts'

interface TagInputProps {
  value: string[]
  onChange: (tags: string[]) => void
  /** A server-side error for the tags, shown under the field. */
  error?: string
}

/**
 * Tags are added by the button or Enter, trimmed, with empties and duplicates ignored, and
 * removed one by one.
 */
export function TagInput({ value, onChange, error }: TagInputProps) {
  const { t } = useTranslation('prompts')
  const id = useId()
  const [draft, setDraft] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  const add = () => {
    const tag = draft.trim()
    if (tag === '') return
    if (tag.length > PROMPT_LIMITS.tagLength) return setProblem(message('prompts.tagTooLong'))
    if (!value.includes(tag)) {
      if (value.length >= PROMPT_LIMITS.tagCount) return setProblem(message('prompts.tooManyTags'))
      onChange([...value, tag])
    }
    setDraft('')
    setProblem(null)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      // Enter adds the tag instead of submitting the form.
      event.preventDefault()
      add()
    }
  }

  const shownError = problem ?? error
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="text-sm font-medium">
        {t('form.tags')}
      </label>
      <div className="flex gap-2">
        <Input
          id={id}
          value={draft}
          placeholder={t('form.tagPlaceholder')}
          onChange={(event) => {
            setDraft(event.target.value)
            setProblem(null)
          }}
          onKeyDown={onKeyDown}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={`${id}-hint`}
        />
        <Button variant="outline" onClick={add} disabled={draft.trim() === ''}>
          <Plus aria-hidden />
          {t('form.addTag')}
        </Button>
      </div>
      {shownError ? (
        <p id={`${id}-hint`} role="alert" className="text-xs font-medium text-destructive">
          {shownError}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {t('form.tagHint')}
        </p>
      )}
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label={t('form.tags')}>
          {value.map((tag) => (
            <li key={tag} className="max-w-full">
              <RemovableBadge
                removeLabel={t('form.removeTag', { tag })}
                onRemove={() => onChange(value.filter((other) => other !== tag))}
              >
                {tag}
              </RemovableBadge>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
