import { CheckCircle2, RefreshCw, XCircle } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { RelativeTime } from '../../components/relative-time.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { errorText } from '../../lib/api.ts'
import { formatDateTime } from '../../lib/format.ts'
import { formatUptime } from './format.ts'
import { useSystemHealth } from './queries.ts'

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 py-2 sm:flex-row sm:justify-between sm:gap-6">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words sm:text-right">{children}</dd>
    </div>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="divide-y text-sm">{children}</dl>
      </CardContent>
    </Card>
  )
}

function Ok({ ok, children }: { ok: boolean; children: ReactNode }) {
  const { t } = useTranslation('admin')
  return (
    <span className={`inline-flex items-center gap-1.5 ${ok ? 'text-success' : 'text-destructive'}`}>
      {ok ? (
        <CheckCircle2 aria-label={t('health.ok')} className="size-4" />
      ) : (
        <XCircle aria-label={t('health.problem')} className="size-4" />
      )}
      {children}
    </span>
  )
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** System Health: live, asked again every 15 s while the tab is open. */
export function SystemHealthPanel() {
  const { t } = useTranslation('admin')
  const health = useSystemHealth()
  if (health.isPending)
    return (
      <LoadingSkeletons label={t('health.loading')} className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-40" />
        ))}
      </LoadingSkeletons>
    )
  if (health.isError)
    return (
      <RetryAlert title={t('health.loadFailed')} onRetry={() => void health.refetch()}>
        {errorText(health.error, '')}
      </RetryAlert>
    )
  const h = health.data
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          {t('health.checked')} <RelativeTime value={h.checkedAt} />
        </p>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void health.refetch()}
          disabled={health.isFetching}
        >
          <RefreshCw className={health.isFetching ? 'animate-spin' : undefined} />
          {t('health.refresh')}
        </Button>
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Section title={t('health.database')}>
          <Row label={t('health.kind')}>
            {h.database.kind === 'pglite' ? t('health.embedded') : 'PostgreSQL'}
          </Row>
          <Row label={t('health.version')}>{h.database.version}</Row>
          <Row label={t('health.latency')}>
            <Ok ok>{t('health.ms', { ms: h.database.latencyMs })}</Ok>
          </Row>
          <Row label={t('health.migrations')}>
            <Ok ok={h.migrations.pending.length === 0}>
              {t('health.migrationsValue', { applied: h.migrations.applied, known: h.migrations.known })}
            </Ok>
          </Row>
          <Row label={t('health.latestMigration')}>
            <code>{h.migrations.latest ?? '—'}</code>
          </Row>
          {h.migrations.pending.length > 0 && (
            <Row label={t('health.pendingMigrations')}>{h.migrations.pending.join(', ')}</Row>
          )}
          {h.database.replicas.map((replica) => (
            <Row key={replica.name} label={`${t('health.replicas')}: ${replica.name}`}>
              <Ok ok={replica.state === 'ok'}>
                {t('health.replicaValue', {
                  state: t(`health.replicaState.${replica.state}`),
                  lag:
                    replica.lagMs === null ? t('health.lagUnknown') : t('health.ms', { ms: replica.lagMs }),
                  reads: replica.reads,
                })}
              </Ok>
            </Row>
          ))}
        </Section>
        <Section title={t('health.mail')}>
          <Row label={t('health.transport')}>
            {h.mail.transport === 'smtp' ? t('health.smtp') : t('health.log')}
          </Row>
          <Row label={t('health.from')}>{h.mail.from}</Row>
          <Row label={t('health.pending')}>
            <span className="tabular-nums">{h.mail.pending}</span>
          </Row>
          <Row label={t('health.oldestPending')}>
            {h.mail.oldestPendingAt ? <RelativeTime value={h.mail.oldestPendingAt} /> : t('health.none')}
          </Row>
          <Row label={t('health.failed')}>
            <Ok ok={h.mail.failed === 0}>
              {t('health.failedValue', { failed: h.mail.failed, recent: h.mail.failedLast24h })}
            </Ok>
          </Row>
        </Section>
        <Section title={t('health.process')}>
          <Row label={t('health.uptime')}>{formatUptime(h.process.uptimeSeconds, t)}</Row>
          <Row label={t('health.started')}>{formatDateTime(h.process.startedAt)}</Row>
          <Row label={t('health.memory')}>
            {t('health.memoryValue', {
              rss: mb(h.process.memory.rssBytes),
              heap: mb(h.process.memory.heapUsedBytes),
              total: mb(h.process.memory.heapTotalBytes),
            })}
          </Row>
          <Row label={t('health.node')}>{h.process.nodeVersion}</Row>
        </Section>
        <Section title={t('health.app')}>
          <Row label={t('health.appVersion')}>{h.app.version}</Row>
          <Row label={t('health.commit')}>
            <code>{h.app.commit ?? t('health.unknown')}</code>
          </Row>
        </Section>
      </div>
    </div>
  )
}
