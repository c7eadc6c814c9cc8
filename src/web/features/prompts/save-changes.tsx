import { useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { PromptType } from '../../../domain/prompt-names.ts'
import { diffableText } from '../../../domain/prompt-variables.ts'
import type { PromptVersion } from '../../../domain/prompts.ts'
import { LazyDiffView } from './compare.tsx'
import type { PromptForm } from './prompt-form.tsx'

function safeText(type: PromptType, body: string): string {
  try {
    return diffableText(type, body)
  } catch {
    return body
  }
}

/** The edit page's 'What this save changes': the form's text against the version it started from. */
export function SaveChanges({
  form,
  type,
  base,
}: {
  form: PromptForm
  type: PromptType
  base: PromptVersion
}) {
  const { t } = useTranslation('craft')
  const prompts = useTranslation('prompts')
  const body = useWatch({ control: form.control, name: 'body' })
  const before = safeText(type, base.body)
  const after = safeText(type, body)
  return (
    <details className="rounded-lg border p-3">
      <summary className="cursor-pointer text-sm font-medium">{t('diff.saveChanges')}</summary>
      <div className="mt-3 space-y-2">
        <p className="text-xs text-muted-foreground">
          {t('diff.saveChangesAgainst', { number: base.versionNumber })}
        </p>
        {before === after ? (
          <p className="text-sm text-muted-foreground">{t('diff.noChanges')}</p>
        ) : (
          <LazyDiffView
            oldText={before}
            newText={after}
            oldLabel={prompts.t('detail.version', { number: base.versionNumber })}
            newLabel={t('diff.editing')}
          />
        )}
      </div>
    </details>
  )
}
