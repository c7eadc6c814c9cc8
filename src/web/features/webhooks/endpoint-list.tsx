import { History, Send, Webhook } from 'lucide-react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WebhookEndpoint } from '../../../domain/webhooks.ts'
import { ConfirmAction } from '../../components/confirm-action.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { errorText } from '../../lib/api.ts'
import { DeliveryLog } from './delivery-log.tsx'
import { EditEndpointButton } from './endpoint-form.tsx'
import { useDeleteWebhook, useSendTestEvent, useUpdateWebhook, useWebhooks } from './queries.ts'
import { SecretButton } from './secret-button.tsx'

function EndpointCard({ endpoint, allowed }: { endpoint: WebhookEndpoint; allowed: () => boolean }) {
  const { t } = useTranslation('webhooks')
  const [showLog, setShowLog] = useState(false)
  const update = useUpdateWebhook(endpoint.id)
  const sendTest = useSendTestEvent(endpoint.id)
  const remove = useDeleteWebhook(endpoint.id)
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
            <ConfirmAction
              action={remove}
              texts={{
                action: t('delete'),
                actionLabel: `${t('delete')}: ${endpoint.url}`,
                title: t('deleteTitle'),
                text: t('deleteText', { url: endpoint.url }),
                done: t('deleted'),
                failed: t('deleteFailed'),
              }}
            />
          </div>
          <section id={logId} hidden={!showLog} aria-label={t('logTitle', { url: endpoint.url })}>
            {showLog && <DeliveryLog endpoint={endpoint} />}
          </section>
        </CardContent>
      </Card>
    </li>
  )
}

export function EndpointList({ teamId, allowed }: { teamId: string | null; allowed: () => boolean }) {
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
