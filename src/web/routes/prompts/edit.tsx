import { ArrowLeft, Lock, RotateCcw, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams } from 'react-router'
import { configText, type PromptDetail, type PromptVersion } from '../../../domain/prompts.ts'
import { EmptyState } from '../../components/empty-state.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card } from '../../components/ui/card.tsx'
import { ConfirmDialog } from '../../components/ui/dialog.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { usePaywall } from '../../features/plans/index.ts'
import {
  PromptFields,
  PromptFormActions,
  PromptLoadFailed,
  PromptLoading,
  SaveChanges,
  useDeletePrompt,
  usePrompt,
  usePromptForm,
  useRefreshPrompt,
  useSavePrompt,
  useVersion,
  VariableLint,
  VariablesPanel,
  VersionHistoryCard,
} from '../../features/prompts/index.ts'
import { ApiError, errorText } from '../../lib/api.ts'
import { applyServerErrors } from '../../lib/forms.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

function DeletePromptButton({ promptId }: { promptId: string }) {
  const { t } = useTranslation('prompts')
  const navigate = useNavigate()
  const remove = useDeletePrompt()
  const [open, setOpen] = useState(false)
  const onConfirm = () =>
    remove.mutate(promptId, {
      onSuccess: () => {
        setOpen(false)
        toast({ title: t('delete.deleted'), tone: 'success' })
        navigate('/prompts', { replace: true })
      },
      onError: (error) => {
        setOpen(false)
        const forbidden = error instanceof ApiError && error.code === 'forbidden'
        toast({
          title: forbidden ? t('delete.permissionDenied') : t('delete.failed'),
          description: errorText(error, t('delete.failed')),
          tone: 'error',
        })
      },
    })
  return (
    <>
      <Button variant="destructive" onClick={() => setOpen(true)} className="sm:ml-auto">
        <Trash2 aria-hidden />
        {t('form.delete')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('delete.title')}
        description={t('delete.text')}
        confirmLabel={remove.isPending ? t('form.deleting') : t('delete.confirm')}
        onConfirm={onConfirm}
        pending={remove.isPending}
      />
    </>
  )
}

function EditPromptForm({
  prompt,
  onRefresh,
}: {
  prompt: PromptDetail
  onRefresh: () => Promise<PromptDetail>
}) {
  const { t } = useTranslation('prompts')
  const navigate = useNavigate()
  const save = useSavePrompt(prompt.id)
  const versionOf = useVersion(prompt.id)
  // The version this edit started from; the server refuses the save if another became current.
  const [base, setBase] = useState(prompt.currentVersion)
  const baseVersionId = base?.id ?? null
  const form = usePromptForm({
    title: prompt.title,
    name: prompt.name,
    description: prompt.description ?? '',
    body: base?.body ?? '',
    changelog: '',
    tags: prompt.tags,
    visibility: prompt.visibility,
    teamId: prompt.teamId ?? '',
    type: prompt.type,
    config: configText(base?.config ?? {}),
    variables: base?.variables ?? [],
  })
  const [formError, setFormError] = useState<string | null>(null)
  const paywall = usePaywall()
  const [stale, setStale] = useState(false)
  const [switchedTo, setSwitchedTo] = useState<string | null>(null)
  const [rebased, setRebased] = useState<string | null>(null)

  const onSubmit = form.handleSubmit(async ({ type: _fixed, name, ...values }) => {
    setFormError(null)
    setRebased(null)
    try {
      // A blank name keeps the one the prompt has.
      await save.mutateAsync({ ...values, ...(name !== null && { name }), baseVersionId })
      toast({ title: t('form.saved'), tone: 'success' })
      navigate(`/prompts/${prompt.id}`)
    } catch (error) {
      if (paywall.showIfPlanLimit(error)) return
      setStale(error instanceof ApiError && error.reason === 'stale_version')
      setFormError(applyServerErrors(form.setError, error, t('form.updateFailed')))
    }
  })

  const rebase = async () => {
    let latest: PromptDetail
    try {
      latest = await onRefresh()
    } catch (error) {
      setFormError(errorText(error, t('detail.loadFailed')))
      return
    }
    const current = latest.currentVersion
    setBase(current)
    setStale(false)
    setFormError(null)
    setRebased(current ? t('form.staleRefreshed', { number: current.versionNumber }) : null)
  }

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Card className="min-w-0">
        <form noValidate onSubmit={onSubmit} className="space-y-6 p-5 sm:p-6">
          <PromptFields form={form} withChangelog bodyStatus={switchedTo} />
          <PromptFormActions
            form={form}
            submitLabel={t('form.save')}
            submittingLabel={t('form.saving')}
            cancelTo={`/prompts/${prompt.id}`}
            blankHint={t('form.fillToSave')}
            baseVersion={base ?? undefined}
            notices={
              <>
                {formError && (
                  <Alert tone="error">
                    <p>{formError}</p>
                    {stale && (
                      <Button variant="outline" size="sm" className="mt-2" onClick={rebase}>
                        <RotateCcw aria-hidden />
                        {t('form.staleRefresh')}
                      </Button>
                    )}
                  </Alert>
                )}
                {rebased && <Alert tone="success">{rebased}</Alert>}
                <VariableLint form={form} />
                {base && <SaveChanges form={form} type={prompt.type} base={base} />}
              </>
            }
          >
            {prompt.access.delete ? (
              <DeletePromptButton promptId={prompt.id} />
            ) : (
              // The owner may not delete it: one of its versions holds a protected label of the team.
              <p className="text-xs text-muted-foreground sm:ml-auto">{t('delete.protectedHint')}</p>
            )}
          </PromptFormActions>
        </form>
      </Card>

      <div className="min-w-0 space-y-6">
        <VariablesPanel form={form} />
        <VersionHistoryCard
          className="h-fit"
          promptId={prompt.id}
          currentVersionId={prompt.currentVersionId}
          actions={(version) => (
            <Button
              variant="outline"
              size="sm"
              aria-label={`${t('form.useThisVersion')}: ${t('detail.version', { number: version.versionNumber })}`}
              onClick={async () => {
                let chosen: PromptVersion
                try {
                  chosen = await versionOf(version.id)
                } catch (error) {
                  toast({ title: errorText(error, t('detail.versionFailed')), tone: 'error' })
                  return
                }
                form.setValue('body', chosen.body, { shouldDirty: true, shouldValidate: true })
                form.setValue('config', configText(chosen.config), {
                  shouldDirty: true,
                  shouldValidate: true,
                })
                form.setValue('variables', chosen.variables, { shouldDirty: true })
                setSwitchedTo(t('form.switchedToVersion', { number: version.versionNumber }))
                // On a phone the history sits below the form: bring the changed content into view.
                form.setFocus('body')
              }}
            >
              <RotateCcw aria-hidden />
              {t('form.useThisVersion')}
            </Button>
          )}
        />
      </div>
      {paywall.dialog}
    </div>
  )
}

function NoPermission({ promptId }: { promptId: string }) {
  const { t } = useTranslation('prompts')
  return (
    <EmptyState
      icon={Lock}
      title={t('form.noPermission')}
      text={t('form.noPermissionText')}
      actions={
        <Button asChild>
          <Link to={`/prompts/${promptId}`}>
            <ArrowLeft aria-hidden />
            {t('form.backToPrompt')}
          </Link>
        </Button>
      }
    />
  )
}

export function EditPromptPage() {
  const { t } = useTranslation('prompts')
  useDocumentTitle(t('form.editTitle'))
  const { id = '' } = useParams()
  const detail = usePrompt(id)
  const refresh = useRefreshPrompt(id)
  if (detail.isPending) return <PromptLoading />
  if (detail.isError) return <PromptLoadFailed error={detail.error} onRetry={() => detail.refetch()} />
  return (
    <>
      <PageHeader
        title={t('form.editTitle')}
        description={detail.data.access.edit ? t('form.editSubtitle') : undefined}
      />
      {detail.data.access.edit ? (
        <EditPromptForm key={id} prompt={detail.data} onRefresh={refresh} />
      ) : (
        <NoPermission promptId={id} />
      )}
    </>
  )
}
