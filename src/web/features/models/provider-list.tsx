import { Bot, Plus } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { CreateProviderInput, ModelProvider } from '../../../domain/models.ts'
import { ConfirmAction } from '../../components/confirm-action.tsx'
import { EditDialog } from '../../components/edit-dialog.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { errorText } from '../../lib/api.ts'
import { reportSubmitError } from '../../lib/forms.ts'
import { ProviderForm } from './provider-form.tsx'
import { useCreateProvider, useDeleteProvider, useProviders, useUpdateProvider } from './queries.ts'

/** The form of a saved provider (to change it, or to go on after adding it). */
function EditProviderForm({ provider, onSaved }: { provider: ModelProvider; onSaved: () => void }) {
  const { t } = useTranslation('models')
  const update = useUpdateProvider(provider.id)
  return (
    <ProviderForm
      key={provider.updatedAt}
      provider={provider}
      submitLabel={t('save')}
      pendingLabel={t('saving')}
      onSubmit={async (body, setError) => {
        try {
          await update.mutateAsync(body)
          onSaved()
          toast({ title: t('saved'), tone: 'success' })
        } catch (error) {
          reportSubmitError(setError, error, t('saveFailed'))
        }
      }}
    />
  )
}

/**
 * Add a provider. Once it is saved the dialog goes on with it as a saved provider: the key's hint
 * shows, and its models can now be fetched from its API.
 */
export function AddProviderDialog({ teamId }: { teamId: string | null }) {
  const { t } = useTranslation('models')
  const [open, setOpen] = useState(false)
  const [created, setCreated] = useState<ModelProvider | null>(null)
  const create = useCreateProvider()
  const onOpenChange = (next: boolean) => {
    setOpen(next)
    if (!next) setCreated(null)
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <Button onClick={() => setOpen(true)}>
        <Plus aria-hidden />
        {t('add')}
      </Button>
      <DialogContent
        title={created ? t('editTitle') : t('addTitle')}
        description={created ? t('createdText', { hint: created.keyHint }) : t('addDescription')}
      >
        {created ? (
          <EditProviderForm provider={created} onSaved={() => onOpenChange(false)} />
        ) : (
          <ProviderForm
            provider={null}
            submitLabel={t('create')}
            pendingLabel={t('creating')}
            onSubmit={async (body, setError) => {
              try {
                setCreated(await create.mutateAsync({ ...(body as CreateProviderInput), teamId }))
                toast({ title: t('created'), tone: 'success' })
              } catch (error) {
                reportSubmitError(setError, error, t('saveFailed'))
              }
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  )
}

function EditProviderButton({ provider }: { provider: ModelProvider }) {
  const { t } = useTranslation('models')
  return (
    <EditDialog
      label={t('edit')}
      subject={provider.name}
      title={t('editTitle')}
      description={t('editDescription')}
    >
      {(close) => <EditProviderForm provider={provider} onSaved={close} />}
    </EditDialog>
  )
}

function DeleteProviderButton({ provider }: { provider: ModelProvider }) {
  const { t } = useTranslation('models')
  const remove = useDeleteProvider(provider.id)
  return (
    <ConfirmAction
      texts={{
        action: t('delete'),
        actionLabel: `${t('delete')}: ${provider.name}`,
        title: t('deleteTitle'),
        text: t('deleteText', { name: provider.name }),
        done: t('deleted'),
        failed: t('deleteFailed'),
      }}
      action={remove}
    />
  )
}

function ProviderCard({ provider }: { provider: ModelProvider }) {
  const { t } = useTranslation('models')
  return (
    <li>
      <Card aria-label={provider.name}>
        <CardHeader className="gap-2">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0 space-y-1">
              <CardTitle className="break-words">{provider.name}</CardTitle>
              <p className="font-mono text-xs break-all text-muted-foreground">{provider.baseUrl}</p>
            </div>
            <Badge variant="outline">{t(`kinds.${provider.kind}`)}</Badge>
          </div>
        </CardHeader>
        <CardContent className="space-y-3">
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
            <dt className="text-muted-foreground">{t('apiKey')}</dt>
            <dd className="font-mono">{provider.keyHint}</dd>
            <dt className="text-muted-foreground">{t('defaultModel')}</dt>
            <dd className="font-mono break-all">{provider.defaultModel || t('noDefault')}</dd>
            <dt className="text-muted-foreground">{t('models')}</dt>
            <dd>
              {provider.models.length === 0 ? (
                t('noModels')
              ) : (
                <ul className="flex flex-wrap gap-1" aria-label={t('modelsOf', { name: provider.name })}>
                  {provider.models.map((model) => (
                    <li key={model} className="max-w-full">
                      <Badge variant="outline" title={model}>
                        {model}
                      </Badge>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            <EditProviderButton provider={provider} />
            <DeleteProviderButton provider={provider} />
          </div>
        </CardContent>
      </Card>
    </li>
  )
}

/** The providers of one space: loading, failed (with Retry), none yet, or their cards. */
export function ProviderList({ teamId }: { teamId: string | null }) {
  const { t } = useTranslation('models')
  const providers = useProviders(teamId)
  if (providers.isPending) {
    return (
      <LoadingSkeletons label={t('loading')} className="space-y-3">
        <Skeleton className="h-36" />
        <Skeleton className="h-36" />
      </LoadingSkeletons>
    )
  }
  if (providers.isError) {
    return (
      <RetryAlert
        title={errorText(providers.error, t('loadFailed'))}
        onRetry={() => void providers.refetch()}
      />
    )
  }
  if (providers.data.items.length === 0) {
    return <EmptyState icon={Bot} title={t('empty')} text={t('emptyText')} />
  }
  return (
    <ul className="space-y-4" aria-label={t('providers')}>
      {providers.data.items.map((provider) => (
        <ProviderCard key={provider.id} provider={provider} />
      ))}
    </ul>
  )
}
