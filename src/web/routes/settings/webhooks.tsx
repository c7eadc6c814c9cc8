import { zodResolver } from '@hookform/resolvers/zod'
import { History, KeyRound, Lock, Pencil, Plus, RefreshCw, Send, Webhook } from 'lucide-react'
import { Fragment, useId, useState } from 'react'
import { Controller, type UseFormSetError, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import {
  type CreatedWebhook,
  createWebhookInput,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookSecret,
  webhookEventTypes,
} from '../../../domain/webhooks.ts'
import { CopyValue } from '../../components/copy-value.tsx'
import { DeleteButton } from '../../components/delete-button.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { SpaceSelect, useSpaceParam } from '../../components/space-select.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Checkbox } from '../../components/ui/checkbox.tsx'
import { ConfirmDialog, Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { ApiAccessBadge, useEntitlements, usePaywall } from '../../features/plans/index.ts'
import { useMyTeams } from '../../features/teams/index.ts'
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRedeliver,
  useRevealSecret,
  useRotateSecret,
  useSendTestEvent,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from '../../features/webhooks/queries.ts'
import { errorText } from '../../lib/api.ts'
import { formatDateTime } from '../../lib/format.ts'
import { fieldError, reportSubmitError } from '../../lib/forms.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

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
      <DialogFooter>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? pendingLabel : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  )
}

function AddEndpointDialog({
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

function EditEndpointButton({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks')
  const [open, setOpen] = useState(false)
  const update = useUpdateWebhook(endpoint.id)
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={`${t('edit')}: ${endpoint.url}`}
      >
        <Pencil aria-hidden />
        {t('edit')}
      </Button>
      <DialogContent title={t('editTitle')} description={t('editDescription')}>
        <EndpointForm
          initial={{ ...endpoint, enabled: endpoint.enabled }}
          submitLabel={t('save')}
          pendingLabel={t('saving')}
          onSubmit={async ({ url, description, events }, setError) => {
            try {
              await update.mutateAsync({ url, description, events })
              setOpen(false)
              toast({ title: t('saved'), tone: 'success' })
            } catch (error) {
              reportSubmitError(setError, error, t('saveFailed'))
            }
          }}
        />
      </DialogContent>
    </Dialog>
  )
}

function SecretButton({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks')
  const [shown, setShown] = useState<WebhookSecret | null>(null)
  const [confirmRotate, setConfirmRotate] = useState(false)
  const reveal = useRevealSecret(endpoint.id)
  const rotate = useRotateSecret(endpoint.id)
  const open = () =>
    reveal.mutate(undefined, {
      onSuccess: setShown,
      onError: (error) => toast({ title: errorText(error, t('revealFailed')), tone: 'error' }),
    })
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={open}
        disabled={reveal.isPending}
        aria-label={`${t('reveal')}: ${endpoint.url}`}
      >
        <KeyRound aria-hidden />
        {t('reveal')}
      </Button>
      <Dialog open={shown !== null} onOpenChange={(next) => !next && setShown(null)}>
        {shown && (
          <DialogContent title={t('revealTitle')} description={t('revealDescription')}>
            <div className="space-y-4">
              <CopyValue label={t('secret')} value={shown.secret} />
              {shown.previousSecret && shown.previousSecretExpiresAt && (
                <CopyValue
                  label={t('previousSecret', {
                    time: formatDateTime(shown.previousSecretExpiresAt),
                  })}
                  value={shown.previousSecret}
                />
              )}
              <DialogFooter>
                <Button variant="outline" onClick={() => setConfirmRotate(true)}>
                  <RefreshCw aria-hidden />
                  {t('rotate')}
                </Button>
                <Button onClick={() => setShown(null)}>{t('done')}</Button>
              </DialogFooter>
            </div>
          </DialogContent>
        )}
      </Dialog>
      <ConfirmDialog
        open={confirmRotate}
        onOpenChange={setConfirmRotate}
        title={t('rotateTitle')}
        description={t('rotateText')}
        confirmLabel={t('rotate')}
        destructive={false}
        pending={rotate.isPending}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: (secret) => {
              setConfirmRotate(false)
              setShown(secret)
              toast({ title: t('rotated'), tone: 'success' })
            },
            onError: (error) => toast({ title: errorText(error, t('rotateFailed')), tone: 'error' }),
          })
        }
      />
    </>
  )
}

function DeleteEndpointButton({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks')
  const remove = useDeleteWebhook(endpoint.id)
  return (
    <DeleteButton
      name={endpoint.url}
      texts={{
        delete: t('delete'),
        title: t('deleteTitle'),
        text: t('deleteText', { url: endpoint.url }),
        deleted: t('deleted'),
        failed: t('deleteFailed'),
      }}
      remove={remove}
    />
  )
}

function StatusBadge({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation('webhooks')
  if (delivery.status === 'succeeded') return <Badge variant="success">{t('statusSucceeded')}</Badge>
  if (delivery.status === 'failed') return <Badge variant="destructive">{t('statusFailed')}</Badge>
  return <Badge variant="warning">{t('statusPending')}</Badge>
}

/** The endpoint's deliveries: one row per attempt (latest first), redelivery per delivery. */
function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks')
  const deliveries = useWebhookDeliveries(endpoint.id)
  const redeliver = useRedeliver(endpoint.id)
  const eventName = (type: string) =>
    (webhookEventTypes as readonly string[]).includes(type)
      ? t(`eventNames.${type as WebhookEventType}`)
      : type
  if (deliveries.isPending) {
    return (
      <LoadingSkeletons label={t('logLoading')} className="space-y-2">
        <Skeleton className="h-8" />
        <Skeleton className="h-8" />
      </LoadingSkeletons>
    )
  }
  if (deliveries.isError) {
    return (
      <RetryAlert
        title={errorText(deliveries.error, t('logFailed'))}
        onRetry={() => void deliveries.refetch()}
      />
    )
  }
  return (
    <div className="space-y-2">
      <div className="flex justify-end">
        <Button
          variant="outline"
          size="sm"
          onClick={() => void deliveries.refetch()}
          disabled={deliveries.isFetching}
        >
          <RefreshCw aria-hidden />
          {t('refresh')}
        </Button>
      </div>
      {deliveries.data.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('logEmpty')}</p>
      ) : (
        <div className="overflow-x-auto rounded-md border">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('logTitle', { url: endpoint.url })}</caption>
            <thead className="bg-muted/50 text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="p-2">
                  {t('colEvent')}
                </th>
                <th scope="col" className="p-2">
                  {t('colAttempt')}
                </th>
                <th scope="col" className="p-2">
                  {t('colTime')}
                </th>
                <th scope="col" className="p-2">
                  {t('colStatus')}
                </th>
                <th scope="col" className="p-2">
                  {t('colLatency')}
                </th>
                <th scope="col" className="p-2">
                  {t('colResponse')}
                </th>
                <th scope="col" className="p-2">
                  <span className="sr-only">{t('colActions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.items.map((delivery) => (
                <Fragment key={delivery.id}>
                  <tr className="border-t align-top">
                    <th scope="row" className="p-2 font-medium" rowSpan={Math.max(delivery.log.length, 1)}>
                      <span className="block">{eventName(delivery.eventType)}</span>
                      <code className="block text-xs font-normal break-all text-muted-foreground">
                        {delivery.eventId}
                      </code>
                      <span className="mt-1 block">
                        <StatusBadge delivery={delivery} />
                      </span>
                      {delivery.status === 'pending' && delivery.nextAttemptAt && delivery.attempts > 0 && (
                        <span className="mt-1 block text-xs font-normal text-muted-foreground">
                          {t('nextAttempt')}: {formatDateTime(delivery.nextAttemptAt)}
                        </span>
                      )}
                    </th>
                    {delivery.log[0] ? (
                      <AttemptCells attempt={delivery.log[0]} />
                    ) : (
                      <td className="p-2 text-muted-foreground" colSpan={5}>
                        {t('queued')} · <RelativeTime value={delivery.createdAt} />
                      </td>
                    )}
                    <td className="p-2" rowSpan={Math.max(delivery.log.length, 1)}>
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={redeliver.isPending || !endpoint.enabled}
                        aria-label={t('redeliverLabel', { event: delivery.eventId })}
                        onClick={() =>
                          redeliver.mutate(delivery.id, {
                            onSuccess: () => toast({ title: t('redelivered'), tone: 'success' }),
                            onError: (error) =>
                              toast({ title: errorText(error, t('redeliverFailed')), tone: 'error' }),
                          })
                        }
                      >
                        <Send aria-hidden />
                        {t('redeliver')}
                      </Button>
                    </td>
                  </tr>
                  {delivery.log.slice(1).map((attempt) => (
                    <tr key={attempt.attempt} className="align-top">
                      <AttemptCells attempt={attempt} />
                    </tr>
                  ))}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}

function AttemptCells({ attempt }: { attempt: WebhookDelivery['log'][number] }) {
  const { t } = useTranslation('webhooks')
  const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300
  return (
    <>
      <td className="p-2 tabular-nums">{attempt.attempt}</td>
      <td className="p-2 whitespace-nowrap">
        <RelativeTime value={attempt.startedAt} />
      </td>
      <td className="p-2">
        {attempt.statusCode === null ? (
          <Badge variant="destructive">{t('noAnswer')}</Badge>
        ) : (
          <Badge variant={ok ? 'success' : 'destructive'}>{attempt.statusCode}</Badge>
        )}
      </td>
      <td className="p-2 whitespace-nowrap tabular-nums">{t('latency', { ms: attempt.durationMs })}</td>
      <td className="max-w-xs p-2">
        <code className="block truncate text-xs" title={attempt.error ?? attempt.responseExcerpt ?? ''}>
          {attempt.error ?? attempt.responseExcerpt ?? '—'}
        </code>
      </td>
    </>
  )
}

function EndpointCard({ endpoint, allowed }: { endpoint: WebhookEndpoint; allowed: () => boolean }) {
  const { t } = useTranslation('webhooks')
  const [showLog, setShowLog] = useState(false)
  const update = useUpdateWebhook(endpoint.id)
  const sendTest = useSendTestEvent(endpoint.id)
  const switchId = useId()
  const logId = useId()
  return (
    <li>
      <Card aria-label={endpoint.url}>
        <CardHeader className="gap-2">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0 space-y-1">
              <CardTitle className="font-mono text-sm break-all">{endpoint.url}</CardTitle>
              {endpoint.description && (
                <p className="text-sm text-muted-foreground">{endpoint.description}</p>
              )}
            </div>
            <div className="flex items-center gap-2">
              {endpoint.enabled ? (
                <Badge variant="success">{t('enabled')}</Badge>
              ) : endpoint.disabledReason === 'failing' ? (
                <Badge variant="destructive">{t('disabledFailing')}</Badge>
              ) : (
                <Badge variant="outline">{t('paused')}</Badge>
              )}
              <Switch
                id={switchId}
                checked={endpoint.enabled}
                disabled={update.isPending}
                aria-label={t('enableLabel', { url: endpoint.url })}
                onCheckedChange={(enabled) => {
                  if (enabled && !allowed()) return
                  update.mutate(
                    { enabled },
                    {
                      onError: (error) =>
                        toast({ title: errorText(error, t('toggleFailed')), tone: 'error' }),
                    },
                  )
                }}
              />
            </div>
          </div>
          <ul className="flex flex-wrap gap-1" aria-label={t('events')}>
            {endpoint.events.map((type) => (
              <li key={type}>
                <Badge variant="outline">{type}</Badge>
              </li>
            ))}
          </ul>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={sendTest.isPending || !endpoint.enabled}
              aria-label={`${t('sendTest')}: ${endpoint.url}`}
              onClick={() =>
                sendTest.mutate(undefined, {
                  onSuccess: () => {
                    setShowLog(true)
                    toast({ title: t('testSent'), tone: 'success' })
                  },
                  onError: (error) => toast({ title: errorText(error, t('testFailed')), tone: 'error' }),
                })
              }
            >
              <Send aria-hidden />
              {t('sendTest')}
            </Button>
            <Button
              variant="outline"
              size="sm"
              aria-expanded={showLog}
              aria-controls={logId}
              onClick={() => setShowLog((shown) => !shown)}
            >
              <History aria-hidden />
              {showLog ? t('hideLog') : t('log')}
            </Button>
            <EditEndpointButton endpoint={endpoint} />
            <SecretButton endpoint={endpoint} />
            <DeleteEndpointButton endpoint={endpoint} />
          </div>
          <section id={logId} hidden={!showLog} aria-label={t('logTitle', { url: endpoint.url })}>
            {showLog && <DeliveryLog endpoint={endpoint} />}
          </section>
        </CardContent>
      </Card>
    </li>
  )
}

function EndpointList({ teamId, allowed }: { teamId: string | null; allowed: () => boolean }) {
  const { t } = useTranslation('webhooks')
  const endpoints = useWebhooks(teamId)
  if (endpoints.isPending) {
    return (
      <LoadingSkeletons label={t('loading')} className="space-y-3">
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
      </LoadingSkeletons>
    )
  }
  if (endpoints.isError) {
    return (
      <RetryAlert
        title={errorText(endpoints.error, t('loadFailed'))}
        onRetry={() => void endpoints.refetch()}
      />
    )
  }
  if (endpoints.data.items.length === 0) {
    return <EmptyState icon={Webhook} title={t('empty')} text={t('emptyText')} />
  }
  return (
    <ul className="space-y-4" aria-label={t('endpoints')}>
      {endpoints.data.items.map((endpoint) => (
        <EndpointCard key={endpoint.id} endpoint={endpoint} allowed={allowed} />
      ))}
    </ul>
  )
}

/** /settings/webhooks: the personal space's endpoints, and those of the teams the user administers. */
export function WebhooksSettingsPage() {
  const { t } = useTranslation('webhooks')
  useDocumentTitle(t('title'))
  const teams = useMyTeams()
  const adminTeams = (teams.data ?? []).filter((team) => team.isAdmin)
  const [teamId, setTeamId] = useSpaceParam(teams.data && adminTeams)
  const entitlements = useEntitlements(teamId ?? undefined)
  const paywall = usePaywall()
  const allowed = () => paywall.allows(entitlements.data, 'webhooks')
  const locked = entitlements.data !== undefined && !entitlements.data.limits.webhooks
  return (
    <>
      {paywall.dialog}
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <div className="flex items-center gap-2">
            <ApiAccessBadge teamId={teamId ?? undefined} feature="webhooks" />
            <AddEndpointDialog teamId={teamId} allowed={allowed} />
          </div>
        }
      />
      <div className="space-y-6">
        {adminTeams.length > 0 && (
          <SpaceSelect
            label={t('space')}
            personalLabel={t('personal')}
            teamLabel={(name) => t('team', { name })}
            teams={adminTeams}
            value={teamId}
            onChange={setTeamId}
          />
        )}
        {locked && (
          <EmptyState
            icon={Lock}
            title={t('lockedTitle')}
            text={t('lockedText')}
            actions={
              <Button asChild>
                <Link to="/billing">{t('choosePlan')}</Link>
              </Button>
            }
          />
        )}
        <EndpointList teamId={teamId} allowed={allowed} />
      </div>
    </>
  )
}
