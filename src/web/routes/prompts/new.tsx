import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { PageHeader } from '../../components/page-header.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Card } from '../../components/ui/card.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { useEntitlements, usePaywall } from '../../features/plans/index.ts'
import {
  emptyPromptForm,
  PromptFields,
  PromptFormActions,
  useCreatePrompt,
  usePromptForm,
  VariableLint,
  VariablesPanel,
} from '../../features/prompts/index.ts'
import { applyServerErrors } from '../../lib/forms.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

export function NewPromptPage() {
  const { t } = useTranslation('prompts')
  useDocumentTitle(t('form.createTitle'))
  const navigate = useNavigate()
  const form = usePromptForm(emptyPromptForm)
  const create = useCreatePrompt()
  const [formError, setFormError] = useState<string | null>(null)
  const personal = useEntitlements()
  const paywall = usePaywall()

  const onSubmit = form.handleSubmit(async ({ changelog: _none, name, ...values }) => {
    setFormError(null)
    // A personal prompt is checked here first; the server checks every create either way.
    if (values.visibility === 'private' && !paywall.allows(personal.data, 'createPrompt')) return
    try {
      // A blank name is made from the title by the server.
      const prompt = await create.mutateAsync({ ...values, ...(name !== null && { name }) })
      toast({ title: t('form.created'), tone: 'success' })
      navigate(`/prompts/${prompt.id}`)
    } catch (error) {
      if (paywall.showIfPlanLimit(error)) return
      setFormError(applyServerErrors(form.setError, error, t('form.createFailed')))
    }
  })

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title={t('form.createTitle')} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card className="min-w-0">
          <form noValidate onSubmit={onSubmit} className="space-y-6 p-5 sm:p-6">
            <PromptFields form={form} withType />
            <PromptFormActions
              form={form}
              submitLabel={t('form.create')}
              submittingLabel={t('form.creating')}
              cancelTo="/prompts"
              blankHint={t('form.fillToCreate')}
              notices={
                <>
                  {formError && <Alert tone="error">{formError}</Alert>}
                  <VariableLint form={form} />
                </>
              }
            />
          </form>
        </Card>
        <VariablesPanel form={form} />
      </div>
      {paywall.dialog}
    </div>
  )
}
