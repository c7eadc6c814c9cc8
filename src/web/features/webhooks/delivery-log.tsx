import { RefreshCw, Send } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '../../../domain/webhooks.ts'
import { WEBHOOK_TEST_EVENT, webhookEventTypes } from '../../../domain/webhooks.ts'
import { cellClass, TableWithRows } from '../../components/data-table.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { errorText } from '../../lib/api.ts'
import { formatDateTime } from '../../lib/format.ts'
import { useRedeliver, useWebhookDeliveries } from './queries.ts'

function StatusBadge({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation('webhooks')
  if (delivery.status === 'succeeded') return <Badge variant="success">{t('statusSucceeded')}</Badge>
  if (delivery.status === 'failed') return <Badge variant="destructive">{t('statusFailed')}</Badge>
  return <Badge variant="warning">{t('statusPending')}</Badge>
}

/** The endpoint's deliveries: one row per attempt (latest first), redelivery per delivery. */
export function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks')
  const deliveries = useWebhookDeliveries(endpoint.id)
  const redeliver = useRedeliver(endpoint.id)
  const eventName = (type: string) =>
    type === WEBHOOK_TEST_EVENT
      ? t('testEventName')
      : (webhookEventTypes as readonly string[]).includes(type)
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
        <TableWithRows
          caption={t('logTitle', { url: endpoint.url })}
          columns={[
            { header: t('colEvent') },
            { header: t('colAttempt') },
            { header: t('colTime') },
            { header: t('colStatus') },
            { header: t('colLatency') },
            { header: t('colResponse') },
            { header: t('colActions'), hideHeader: true },
          ]}
        >
          {deliveries.data.items.map((delivery) => (
            <tbody key={delivery.id} className="border-t">
              <tr className="align-top">
                <th
                  scope="row"
                  className={cellClass({ className: 'font-medium' })}
                  rowSpan={Math.max(delivery.log.length, 1)}
                >
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
                  <td className={cellClass({ className: 'text-muted-foreground' })} colSpan={5}>
                    {t('queued')} · <RelativeTime value={delivery.createdAt} />
                  </td>
                )}
                <td className={cellClass()} rowSpan={Math.max(delivery.log.length, 1)}>
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
            </tbody>
          ))}
        </TableWithRows>
      )}
    </div>
  )
}

function AttemptCells({ attempt }: { attempt: WebhookDelivery['log'][number] }) {
  const { t } = useTranslation('webhooks')
  const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300
  return (
    <>
      <td className="px-3 py-2 tabular-nums">{attempt.attempt}</td>
      <td className="px-3 py-2 whitespace-nowrap">
        <RelativeTime value={attempt.startedAt} />
      </td>
      <td className="px-3 py-2">
        {attempt.statusCode === null ? (
          <Badge variant="destructive">{t('noAnswer')}</Badge>
        ) : (
          <Badge variant={ok ? 'success' : 'destructive'}>{attempt.statusCode}</Badge>
        )}
      </td>
      <td className="px-3 py-2 whitespace-nowrap tabular-nums">{t('latency', { ms: attempt.durationMs })}</td>
      <td className="max-w-xs px-3 py-2">
        <code className="block truncate text-xs" title={attempt.error ?? attempt.responseExcerpt ?? ''}>
          {attempt.error ?? attempt.responseExcerpt ?? '—'}
        </code>
      </td>
    </>
  )
}
