import type { LucideIcon } from 'lucide-react'
import { Activity, FileText, UserPlus, Users, UsersRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../components/data-table.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { AcquisitionChart, dayLabel } from './acquisition-chart.tsx'
import { useSystemStats } from './queries.ts'

function StatCard({ label, value, icon: Icon }: { label: string; value: number; icon: LucideIcon }) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between gap-3 p-5">
        <div>
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="text-3xl font-semibold tabular-nums">{value.toLocaleString(currentLanguage())}</p>
        </div>
        <Icon aria-hidden className="size-6 text-muted-foreground" />
      </CardContent>
    </Card>
  )
}

/** The four live cards and 'User Acquisition (Last 30 Days)'. */
export function SystemStatsPanel() {
  const { t } = useTranslation('admin')
  const stats = useSystemStats()
  if (stats.isPending)
    return (
      <LoadingSkeletons label={t('stats.loading')} className="space-y-4">
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-24" />
          ))}
        </div>
        <Skeleton className="h-72" />
      </LoadingSkeletons>
    )
  if (stats.isError)
    return (
      <RetryAlert title={t('stats.loadFailed')} onRetry={() => void stats.refetch()}>
        {errorText(stats.error, '')}
      </RetryAlert>
    )
  const data = stats.data
  const acquisition = data.userAcquisition
  const number = (value: number) => value.toLocaleString(currentLanguage())
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label={t('stats.totalUsers')} value={data.totalUsers} icon={Users} />
        <StatCard label={t('stats.totalTeams')} value={data.totalTeams} icon={UsersRound} />
        <StatCard label={t('stats.totalPrompts')} value={data.totalPrompts} icon={FileText} />
        <StatCard label={t('stats.activeUsers')} value={data.activeUsers} icon={Activity} />
      </div>
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <UserPlus aria-hidden className="size-5" />
            {t('acquisition.title')}
          </CardTitle>
          <CardDescription>{t('acquisition.description')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <dl className="grid grid-cols-3 gap-3">
            <div className="rounded-lg border p-3">
              <dt className="text-xs text-muted-foreground">{t('acquisition.total')}</dt>
              <dd className="text-2xl font-semibold tabular-nums">{number(acquisition.total)}</dd>
            </div>
            <div className="rounded-lg border p-3">
              <dt className="text-xs text-muted-foreground">{t('acquisition.average')}</dt>
              <dd className="text-2xl font-semibold tabular-nums">{number(acquisition.averagePerDay)}</dd>
            </div>
            <div className="rounded-lg border p-3">
              <dt className="text-xs text-muted-foreground">
                {t('acquisition.lastDays', { days: acquisition.lastDays })}
              </dt>
              <dd className="text-2xl font-semibold tabular-nums">{number(acquisition.lastDaysCount)}</dd>
            </div>
          </dl>
          <AcquisitionChart days={acquisition.days} />
          <details className="rounded-lg border p-3 text-sm">
            <summary className="cursor-pointer font-medium">{t('acquisition.asTable')}</summary>
            <DataTable
              caption={t('acquisition.title')}
              framed={false}
              className="mt-3"
              rows={acquisition.days}
              rowKey={(day) => day.date}
              columns={[
                { header: t('acquisition.day'), cell: (day) => dayLabel(day.date, 'long') },
                { header: t('acquisition.signUps'), numeric: true, cell: (day) => day.count },
              ]}
            />
          </details>
        </CardContent>
      </Card>
    </div>
  )
}
