import { CheckCircle2, CircleDashed, Download, RefreshCw, XCircle } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import {
  type BuildItemStatus,
  type BuildOverallStatus,
  type BuildReport,
  buildReportMarkdown,
} from '../../../domain/admin.ts'
import { DataTable } from '../../components/data-table.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
// Not through index.ts: that would load the admin screen's chart library with this page.
import { formatUptime, useBuildStatus } from '../../features/admin/index.ts'
import { errorText } from '../../lib/api.ts'
import { formatDateTime } from '../../lib/format.ts'
import { useScreenTitle } from '../placeholder.tsx'

const overallVariant: Record<BuildOverallStatus, 'success' | 'warning' | 'destructive'> = {
  healthy: 'success',
  warning: 'warning',
  critical: 'destructive',
}
const statusVariant: Record<BuildItemStatus, 'success' | 'warning' | 'destructive'> = {
  completed: 'success',
  partial: 'warning',
  missing: 'destructive',
}
const statusIcon = { completed: CheckCircle2, partial: CircleDashed, missing: XCircle }

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/markdown;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  URL.revokeObjectURL(url)
}

/** /build-status (global admins): the server's build report, its history, and a Markdown export. */
export function BuildStatusPage() {
  const title = useScreenTitle('buildStatus')
  const { t } = useTranslation('admin')
  const status = useBuildStatus()
  const uptime = (seconds: number) => formatUptime(seconds, t)
  const itemText = (key: string) => t(`build.items.${key}` as never, { defaultValue: key })

  const exportReport = (report: BuildReport) =>
    download(
      `build-report-${report.generatedAt.slice(0, 19).replace(/[:T]/g, '-')}.md`,
      buildReportMarkdown(report, {
        title: t('build.reportTitle'),
        generated: t('build.generated'),
        version: t('build.version'),
        commit: t('build.commit'),
        uptime: t('build.uptime'),
        failedSignIns: t('build.failedSignIns'),
        overall: t('build.overall'),
        summary: t('build.summary'),
        criterion: t('build.criterion'),
        status: t('build.status'),
        priority: t('build.priority'),
        evidence: t('build.evidence'),
        statusOf: (s) => t(`build.statuses.${s}`),
        priorityOf: (p) => t(`build.priorities.${p}`),
        overallOf: (o) => t(`build.overallStatuses.${o}`),
        areaOf: (area) => t(`build.areas.${area}` as never, { defaultValue: area }),
        itemOf: itemText,
        uptimeOf: uptime,
      }),
    )

  return (
    <>
      <PageHeader
        title={title}
        description={t('build.description')}
        actions={
          <>
            <Button variant="outline" onClick={() => void status.refetch()} disabled={status.isFetching}>
              <RefreshCw className={status.isFetching ? 'animate-spin' : undefined} />
              {t('build.refresh')}
            </Button>
            <Button disabled={!status.data} onClick={() => status.data && exportReport(status.data.current)}>
              <Download />
              {t('build.export')}
            </Button>
          </>
        }
      />
      {status.isPending ? (
        <LoadingSkeletons label={t('build.loading')} className="space-y-4">
          <Skeleton className="h-28" />
          <Skeleton className="h-64" />
        </LoadingSkeletons>
      ) : status.isError ? (
        <RetryAlert title={t('build.loadFailed')} onRetry={() => void status.refetch()}>
          {errorText(status.error, '')}
        </RetryAlert>
      ) : (
        <BuildReportView
          report={status.data.current}
          history={status.data.history}
          itemText={itemText}
          uptime={uptime}
        />
      )}
    </>
  )
}

function BuildReportView({
  report,
  history,
  itemText,
  uptime,
}: {
  report: BuildReport
  history: NonNullable<ReturnType<typeof useBuildStatus>['data']>['history']
  itemText: (key: string) => string
  uptime: (seconds: number) => string
}) {
  const { t } = useTranslation('admin')
  const s = report.summary
  return (
    <div className="space-y-6">
      <Card>
        <CardContent className="grid grid-cols-1 gap-4 p-5 sm:grid-cols-2 lg:grid-cols-5">
          <div>
            <p className="text-xs text-muted-foreground">{t('build.overall')}</p>
            <Badge variant={overallVariant[report.overallStatus]} className="mt-1 text-sm">
              {t(`build.overallStatuses.${report.overallStatus}`)}
            </Badge>
          </div>
          <div>
            <p className="text-xs text-muted-foreground">{t('build.version')}</p>
            <p className="font-medium">
              {report.version} <code className="text-xs text-muted-foreground">{report.commit ?? '—'}</code>
            </p>
          </div>
          <div>
            <p className="text-xs text-muted-foreground">{t('build.uptime')}</p>
            <p className="font-medium">{uptime(report.uptimeSeconds)}</p>
          </div>
          <div>
            <p className="text-xs text-muted-foreground">{t('build.failedSignIns')}</p>
            <p className="font-medium tabular-nums">{report.failedSignInsLast24h}</p>
          </div>
          <div>
            <p className="text-xs text-muted-foreground">{t('build.summary')}</p>
            <p className="font-medium">
              {t('build.summaryValue', {
                completed: s.completed,
                partial: s.partial,
                missing: s.missing,
                total: s.total,
              })}
            </p>
          </div>
        </CardContent>
      </Card>
      <p className="text-sm text-muted-foreground">{t('build.rule')}</p>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {report.areas.map((area) => (
          <Card key={area.area}>
            <CardHeader>
              <CardTitle className="text-base">
                {t(`build.areas.${area.area}` as never, { defaultValue: area.area })}
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="divide-y text-sm">
                {area.items.map((item) => {
                  const Icon = statusIcon[item.status]
                  return (
                    <li key={item.key} className="flex flex-col gap-1 py-2.5" data-testid="build-item">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <span className="inline-flex items-center gap-2 font-medium">
                          <Icon aria-hidden className="size-4 shrink-0" />
                          {itemText(item.key)}
                        </span>
                        <span className="flex gap-1.5">
                          <Badge variant={statusVariant[item.status]}>
                            {t(`build.statuses.${item.status}`)}
                          </Badge>
                          <Badge variant="outline">{t(`build.priorities.${item.priority}`)}</Badge>
                        </span>
                      </div>
                      <p className="break-all text-xs text-muted-foreground">{item.evidence}</p>
                    </li>
                  )
                })}
              </ul>
            </CardContent>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">{t('build.history')}</CardTitle>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          <DataTable
            caption={t('build.history')}
            framed={false}
            className="min-w-[36rem]"
            rows={history}
            rowKey={(saved) => saved.id}
            rowProps={() => ({ 'data-testid': 'build-history-row' })}
            columns={[
              { header: t('build.generated'), cell: (saved) => formatDateTime(saved.createdAt) },
              {
                header: t('build.version'),
                cell: (saved) => (
                  <>
                    {saved.version}{' '}
                    <code className="text-xs text-muted-foreground">{saved.commit ?? ''}</code>
                  </>
                ),
              },
              {
                header: t('build.overall'),
                cell: (saved) => (
                  <Badge variant={overallVariant[saved.overallStatus]}>
                    {t(`build.overallStatuses.${saved.overallStatus}`)}
                  </Badge>
                ),
              },
              {
                header: t('build.statuses.completed'),
                numeric: true,
                cell: (saved) => saved.summary.completed,
              },
              { header: t('build.statuses.partial'), numeric: true, cell: (saved) => saved.summary.partial },
              { header: t('build.statuses.missing'), numeric: true, cell: (saved) => saved.summary.missing },
            ]}
          />
        </CardContent>
      </Card>
    </div>
  )
}
