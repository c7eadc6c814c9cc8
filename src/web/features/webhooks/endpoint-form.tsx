import { zodResolver } from '@hookform/resolvers/zod'
import { Plus } from 'lucide-react'
import { useId, useState } from 'react'
import { Controller, type UseFormSetError, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import {
  type CreatedWebhook,
  createWebhookInput,
  type WebhookEndpoint,
  type WebhookEventType,
  webhookEventTypes,
} from '../../../domain/webhooks.ts'
import { CopyValue } from '../../components/copy-value.tsx'
import { DialogSubmitFooter, EditDialog } from '../../components/edit-dialog.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Checkbox } from '../../components/ui/checkbox.tsx'
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { fieldError, reportSubmitError } from '../../lib/forms.ts'
import { usePaywall } from '../plans/index.ts'
import { useCreateWebhook, useUpdateWebhook } from './queries.ts'

type FormValues = { url: string; description: string; events: WebhookEventType[]; enabled: boolean }

/** The add and edit form: URL, description, the events (checkboxes). */
function EndpointForm({
  initial,
  submitLabel,
  pendingLabel,
  onSubmit,
}: {
  initial: FormValues
  submitLabel: string
  pendingLabel: string
  onSubmit: (values: FormValues, setError: UseFormSetError<FormValues>) => Promise<void>
}) {
  const { t } = useTranslation('webhooks')
  const legendId = useId()
  const form = useForm<FormValues>({
    resolver: zodResolver(createWebhookInput) as never,
    defaultValues: initial,
  })
  const { errors, isSubmitting } = form.formState
  const eventsError = fieldError(errors, 'events')
  return (
    <form
      onSubmit={form.handleSubmit((values) => onSubmit(values, form.setError))}
      className="space-y-4"
      noValidate
    >
      <Field label={t('url')} hint={t('urlHint')} error={fieldError(errors, 'url')}>
        <Input
          type="url"
          placeholder="https://example.com/webhooks/promptfolio"
          autoComplete="off"
          {...form.register('url')}
        />
      </Field>
      <Field label={t('descriptionLabel')} error={fieldError(errors, 'description')}>
        <Input
          placeholder={t('descriptionPlaceholder')}
          autoComplete="off"
          {...form.register('description')}
        />
      </Field>
      <fieldset
        aria-labelledby={legendId}
        aria-invalid={eventsError ? true : undefined}
        className="space-y-2"
      >
        <legend id={legendId} className="text-sm font-medium">
          {t('events')}
        </legend>
        <Controller
          control={form.control}
          name="events"
          render={({ field }) => (
            <div className="grid gap-2 sm:grid-cols-2">
              {webhookEventTypes.map((type) => {
                const id = `${legendId}-${type}`
                return (
                  <div key={type} className="flex items-center gap-2">
                    <Checkbox
                      id={id}
                      checked={field.value.includes(type)}
                      onCheckedChange={(checked) =>
                        field.onChange(
                          checked ? [...field.value, type] : field.value.filter((event) => event !== type),
                        )
                      }
                    />
                    <label htmlFor={id} className="text-sm">
                      {t(`eventNames.${type}`)} <code className="text-xs text-muted-foreground">{type}</code>
                    </label>
                  </div>
                )
              })}
            </div>
          )}
        />
        {eventsError && (
          <p role="alert" className="text-xs font-medium text-destructive">
            {eventsError}
          </p>
        )}
      </fieldset>
      <DialogSubmitFooter label={submitLabel} pendingLabel={pendingLabel} pending={isSubmitting} />
    </form>
  )
}

export function AddEndpointDialog({
  teamId,
  allowed,
}: {
  teamId: string | null
  /** Asks the plan first; false when the paywall was shown instead. */
  allowed: () => boolean
}) {
  const { t } = useTranslation('webhooks')
  const [open, setOpen] = useState(false)
  const [created, setCreated] = useState<CreatedWebhook | null>(null)
  const create = useCreateWebhook()
  const paywall = usePaywall()
  const onOpenChange = (next: boolean) => {
    setOpen(next)
    if (!next) setCreated(null)
  }
  return (
    <>
      {paywall.dialog}
      <Dialog open={open} onOpenChange={onOpenChange}>
        <Button onClick={() => allowed() && setOpen(true)}>
          <Plus aria-hidden />
          {t('add')}
        </Button>
        <DialogContent title={t('addTitle')} description={t('addDescription')}>
          {created ? (
            <div className="space-y-4">
              <p role="status" className="text-sm font-medium">
                {t('secretCreated')}
              </p>
              <CopyValue label={t('secret')} value={created.secret} />
              <DialogFooter>
                <Button onClick={() => onOpenChange(false)}>{t('done')}</Button>
              </DialogFooter>
            </div>
          ) : (
            <EndpointForm
              initial={{ url: '', description: '', events: [...webhookEventTypes], enabled: true }}
              submitLabel={t('create')}
              pendingLabel={t('creating')}
              onSubmit={async (values, setError) => {
                try {
                  setCreated(await create.mutateAsync({ ...values, teamId }))
                  toast({ title: t('created'), tone: 'success' })
                } catch (error) {
                  if (paywall.showIfPlanLimit(error)) {
                    setOpen(false)
                    return
                  }
                  reportSubmitError(setError, error, t('saveFailed'))
                }
              }}
            />
          )}
        </DialogContent>
      </Dialog>
    </>
  )
}

export function EditEndpointButton({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks')
  const update = useUpdateWebhook(endpoint.id)
  return (
    <EditDialog
      label={t('edit')}
      subject={endpoint.url}
      title={t('editTitle')}
      description={t('editDescription')}
    >
      {(close) => (
        <EndpointForm
          initial={{ ...endpoint, enabled: endpoint.enabled }}
          submitLabel={t('save')}
          pendingLabel={t('saving')}
          onSubmit={async ({ url, description, events }, setError) => {
            try {
              await update.mutateAsync({ url, description, events })
              close()
              toast({ title: t('saved'), tone: 'success' })
            } catch (error) {
              reportSubmitError(setError, error, t('saveFailed'))
            }
          }}
        />
      )}
    </EditDialog>
  )
}
