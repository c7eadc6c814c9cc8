import { FileDown } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { PageHeader, useDocumentTitle } from '../../components/page-header.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card } from '../../components/ui/card.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { CopyButton } from '../../features/prompts/copy-button.tsx'
import { formMarkdown, useMarkdownExport } from '../../features/prompts/markdown.ts'
import {
  emptyPromptForm,
  PromptFields,
  useCanSubmit,
  usePromptForm,
} from '../../features/prompts/prompt-form.tsx'
import { useCreatePrompt } from '../../features/prompts/prompt-queries.ts'
import { applyServerErrors } from '../../lib/forms.ts'

export function NewPromptPage() {
  const { t } = useTranslation('prompts')
  useDocumentTitle(t('form.createTitle'))
  const navigate = useNavigate()
  const form = usePromptForm(emptyPromptForm)
  const canSubmit = useCanSubmit(form)
  const create = useCreatePrompt()
  const toMarkdown = useMarkdownExport()
  const [formError, setFormError] = useState<string | null>(null)
  const { isSubmitting } = form.formState

  const onSubmit = form.handleSubmit(async ({ title, description, body, tags, visibility, teamId }) => {
    setFormError(null)
    try {
      const detail = await create.mutateAsync({ title, description, body, tags, visibility, teamId })
      toast({ title: t('form.created'), tone: 'success' })
      navigate(`/prompts/${detail.prompt.id}`)
    } catch (error) {
      setFormError(applyServerErrors(form.setError, error, t('form.createFailed')))
    }
  })

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('form.createTitle')} />
      <Card>
        <form noValidate onSubmit={onSubmit} className="space-y-6 p-5 sm:p-6">
          <PromptFields form={form} />
          <div className="space-y-3 border-t pt-5">
            {formError && <Alert tone="error">{formError}</Alert>}
            <div className="flex flex-wrap items-center gap-2">
              <Button type="submit" disabled={!canSubmit || isSubmitting}>
                {isSubmitting ? t('form.creating') : t('form.create')}
              </Button>
              <CopyButton
                kind="markdown"
                size="md"
                icon={<FileDown aria-hidden />}
                label={t('form.copyMarkdown')}
                disabled={!canSubmit}
                text={() => formMarkdown(toMarkdown, form.getValues())}
              />
              <Button asChild variant="ghost">
                <Link to="/prompts">{t('form.cancel')}</Link>
              </Button>
            </div>
            {!canSubmit && <p className="text-xs text-muted-foreground">{t('form.fillToCreate')}</p>}
          </div>
        </form>
      </Card>
    </div>
  )
}
