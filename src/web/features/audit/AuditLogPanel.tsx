import { Download, History } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type AuditAction, type AuditEntry, type AuditState, auditActions } from '../../../domain/audit.ts'
import { DataTable } from '../../components/data-table.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select } from '../../components/ui/input.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { errorText } from '../../lib/api.ts'
import {
  type AuditFilterValues,
  type AuditScope,
  useAuditExport,
  useAuditLog,
  useAuditTeams,
} from './queries.ts'

type AuditLogPanelProps = AuditScope

interface FormValues {
  actor: string
  action: string
  teamId: string
  from: string
  to: string
}

const emptyForm: FormValues = { actor: '', action: '', teamId: '', from: '', to: '' }

/** A date input's day as the start (or end) of that day in the browser's time zone, in ISO. */
function dayBoundary(day: string, end: boolean): string | undefined {
  if (!day) return undefined
  const time = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`)
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString()
}

function toFilters(form: FormValues, scope: AuditScope): AuditFilterValues {
  const filters: AuditFilterValues = {}
  if (form.actor.trim()) filters.actor = form.actor.trim()
  if (form.action) filters.action = form.action as AuditAction
  if (scope.scope === 'global' && form.teamId) filters.teamId = form.teamId
  const from = dayBoundary(form.from, false)
  const to = dayBoundary(form.to, true)
  if (from) filters.from = from
  if (to) filters.to = to
  return filters
}

const actionKey = (action: AuditAction) => `actions.${action.replaceAll('.', '_')}` as 'actions.team_created'

/** Hands the CSV text to the browser as a file download. */
function saveFile(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/**
 * The audit log: filters (actor, action, team for the global log, days), the entries newest first
 * with 'Load more', and a CSV download of what the filters match. Self-contained: the team page's
 * Activity tab uses it with `{ scope: 'team', teamId }`, the admin area with `{ scope: 'global' }`.
 */
export function AuditLogPanel(props: AuditLogPanelProps) {
  const scope: AuditScope =
    props.scope === 'team' ? { scope: 'team', teamId: props.teamId } : { scope: 'global' }
  const { t } = useTranslation('audit')
  const [form, setForm] = useState<FormValues>(emptyForm)
  const [filters, setFilters] = useState<AuditFilterValues>({})
  const log = useAuditLog(scope, filters)
  const exporter = useAuditExport(scope)
  const teams = useAuditTeams(scope.scope === 'global')
  const teamNames = new Map(teams.data?.items.map((team) => [team.id, team.name]))
  const headingId = useId()
  const entries = log.data?.pages.flatMap((page) => page.items) ?? []
  const filtered = Object.keys(filters).length > 0

  const apply = (event: FormEvent) => {
    event.preventDefault()
    setFilters(toFilters(form, scope))
  }
  const reset = () => {
    setForm(emptyForm)
    setFilters({})
  }
  const download = () =>
    exporter.mutate(filters, {
      onSuccess: (result) => {
        saveFile(result.filename, result.csv)
        toast({
          title: t(result.truncated ? 'downloadTruncated' : 'downloaded', { rows: result.rowCount }),
          tone: result.truncated ? 'default' : 'success',
        })
      },
      onError: (error) => toast({ title: errorText(error, t('downloadFailed')), tone: 'error' }),
    })
  const field = (name: keyof FormValues) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  })

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="space-y-1.5">
          <CardTitle id={headingId}>{scope.scope === 'team' ? t('title') : t('globalTitle')}</CardTitle>
          <CardDescription>
            {scope.scope === 'team' ? t('teamDescription') : t('description')}
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={download} disabled={exporter.isPending}>
          <Download aria-hidden />
          {exporter.isPending ? t('downloading') : t('download')}
        </Button>
      </CardHeader>
      <CardContent className="space-y-4">
        <form
          aria-label={t('filters.label')}
          onSubmit={apply}
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(auto-fit,minmax(10rem,1fr))]"
        >
          <Field label={t('filters.actor')} hint={t('filters.actorHint')}>
            <Input type="search" autoComplete="off" maxLength={254} {...field('actor')} />
          </Field>
          <Field label={t('filters.action')}>
            <Select {...field('action')}>
              <option value="">{t('filters.anyAction')}</option>
              {auditActions.map((action) => (
                <option key={action} value={action}>
                  {t(actionKey(action))}
                </option>
              ))}
            </Select>
          </Field>
          {scope.scope === 'global' && (
            <Field label={t('filters.team')}>
              <Select {...field('teamId')}>
                <option value="">{t('filters.anyTeam')}</option>
                {teams.data?.items.map((team) => (
                  <option key={team.id} value={team.id}>
                    {team.name}
                  </option>
                ))}
              </Select>
            </Field>
          )}
          <Field label={t('filters.from')}>
            <Input type="date" {...field('from')} />
          </Field>
          <Field label={t('filters.to')}>
            <Input type="date" {...field('to')} />
          </Field>
          <div className="flex flex-wrap items-end gap-2">
            <Button type="submit" size="sm">
              {t('filters.apply')}
            </Button>
            <Button type="button" variant="ghost" size="sm" onClick={reset}>
              {t('filters.reset')}
            </Button>
          </div>
        </form>
        {log.isPending ? (
          <LoadingSkeletons label={t('loading')} className="space-y-2">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </LoadingSkeletons>
        ) : log.isError && entries.length === 0 ? (
          <RetryAlert title={t('loadFailed')} onRetry={() => void log.refetch()}>
            {errorText(log.error, '')}
          </RetryAlert>
        ) : entries.length === 0 ? (
          <EmptyState
            icon={History}
            title={filtered ? t('emptyFiltered') : t('empty')}
            text={filtered ? t('emptyFilteredText') : t('emptyText')}
            className="py-8 shadow-none"
          />
        ) : (
          <AuditTable entries={entries} teamNames={scope.scope === 'global' ? teamNames : undefined} />
        )}
        {log.hasNextPage && (
          <div className="flex justify-center">
            <Button
              variant="outline"
              size="sm"
              disabled={log.isFetchingNextPage}
              onClick={() => void log.fetchNextPage()}
            >
              {log.isFetchingNextPage ? t('loadingMore') : t('loadMore')}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  )
}

/** `teamNames` is given where the table shows a team column (the global log). */
function AuditTable({ entries, teamNames }: { entries: AuditEntry[]; teamNames?: Map<string, string> }) {
  const { t } = useTranslation('audit')
  return (
    <DataTable
      caption={t('table')}
      rows={entries}
      rowKey={(entry) => entry.id}
      rowProps={() => ({ className: 'align-top' })}
      columns={[
        {
          header: t('columns.when'),
          className: 'whitespace-nowrap',
          cell: (entry) => <RelativeTime value={entry.createdAt} />,
        },
        {
          header: t('columns.actor'),
          cell: (entry) => (
            <>
              <span className="block max-w-56 truncate" title={entry.actorEmail ?? entry.actorUserId ?? ''}>
                {entry.actorEmail ?? entry.actorUserId ?? t('unknownActor')}
              </span>
              <span className="text-xs text-muted-foreground">{t(`actorKind.${entry.actorKind}`)}</span>
            </>
          ),
        },
        {
          header: t('columns.action'),
          className: 'font-medium',
          cell: (entry) => t(actionKey(entry.action)),
        },
        {
          header: t('columns.object'),
          cell: (entry) => (
            <>
              {t(`objectType.${entry.objectType}`)}
              {entry.objectId && (
                <span className="block font-mono text-xs text-muted-foreground" title={entry.objectId}>
                  {entry.objectId.slice(0, 8)}
                </span>
              )}
            </>
          ),
        },
        teamNames !== undefined && {
          header: t('columns.team'),
          cell: (entry) => (
            <TeamCell teamId={entry.teamId} name={entry.teamId ? teamNames.get(entry.teamId) : undefined} />
          ),
        },
        {
          header: t('columns.details'),
          cell: (entry) => <Changes before={entry.before} after={entry.after} />,
        },
        {
          header: t('columns.address'),
          className: 'whitespace-nowrap font-mono text-xs',
          cell: (entry) => entry.clientAddress ?? t('none'),
        },
      ]}
    />
  )
}

const show = (value: unknown) =>
  value === null || value === undefined ? '∅' : typeof value === 'string' ? value : JSON.stringify(value)

/** Each field the entry names: `name: Old → New`, or only the side there is. */
function Changes({ before, after }: { before: AuditState | null; after: AuditState | null }) {
  const { t } = useTranslation('audit')
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])]
  if (keys.length === 0) return <span className="text-muted-foreground">{t('none')}</span>
  return (
    <ul className="space-y-0.5 text-xs">
      {keys.map((key) => {
        const had = before !== null && key in before
        const has = after !== null && key in after
        return (
          <li key={key} className="break-all">
            <span className="text-muted-foreground">{key}:</span>{' '}
            {had && has ? (
              <>
                {show(before[key])} → {show(after[key])}
              </>
            ) : (
              show(had ? before?.[key] : after?.[key])
            )}
          </li>
        )
      })}
    </ul>
  )
}

/** A team by name where the log knows it; a deleted team's entries keep its short id. */
function TeamCell({ teamId, name }: { teamId: string | null; name: string | undefined }) {
  const { t } = useTranslation('audit')
  if (!teamId) return <span className="text-xs">{t('none')}</span>
  return (
    <span className="text-xs" title={teamId}>
      {name ?? <span className="font-mono">{teamId.slice(0, 8)}</span>}
    </span>
  )
}
