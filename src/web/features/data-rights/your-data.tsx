import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Download, FileArchive, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { dataRightsOperations } from '../../../domain/api/data-rights.ts'
import type { DataExport, ExportArchive } from '../../../domain/data-rights.ts'
import { formatLongDateTime } from '../../../domain/time.ts'
import { Alert, RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { ApiError, callOperation, errorText } from '../../lib/api.ts'
import { operationQuery } from '../../lib/queries.ts'
import { replaceSession } from '../auth/index.ts'

const latestQuery = operationQuery(dataRightsOperations.latestExport, {})

/** Saves the archive as one zip: the JSON document and each prompt as a Markdown file. */
async function saveArchive(archive: ExportArchive) {
  const { strToU8, zipSync } = await import('fflate')
  const files: Record<string, Uint8Array> = {
    'promptfolio-export.json': strToU8(JSON.stringify(archive, null, 2)),
  }
  for (const [path, text] of Object.entries(archive.markdown)) files[path] = strToU8(text)
  const blob = new Blob([zipSync(files)], { type: 'application/zip' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = `promptfolio-export-${archive.exportedAt.slice(0, 10)}.zip`
  link.click()
  URL.revokeObjectURL(url)
}

/** 'Export my data': start, watch the progress, download once. */
export function ExportDataCard() {
  const { t } = useTranslation('account')
  const queryClient = useQueryClient()
  const latest = useQuery({
    ...latestQuery,
    // While an export is being built, ask again every second.
    refetchInterval: (query) => {
      const status = query.state.data?.export?.status
      return status === 'pending' || status === 'running' ? 1000 : false
    },
  })
  const start = useMutation({
    mutationFn: () => callOperation(dataRightsOperations.startExport, {}),
    onSuccess: (started) => queryClient.setQueryData(latestQuery.queryKey, { export: started }),
  })
  const download = useMutation({
    mutationFn: (id: string) => callOperation(dataRightsOperations.downloadExport, { params: { id } }),
    onSuccess: async (archive) => {
      await saveArchive(archive as unknown as ExportArchive)
      await queryClient.invalidateQueries({ queryKey: latestQuery.queryKey })
      toast({ title: t('data.downloaded'), tone: 'success' })
    },
    onError: (error) => toast({ title: errorText(error, t('data.downloadFailed')), tone: 'error' }),
  })
  const current: DataExport | null | undefined = latest.data?.export
  const building = current?.status === 'pending' || current?.status === 'running'

  return (
    <Card role="region" aria-label={t('data.exportTitle')}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileArchive aria-hidden className="size-4 text-muted-foreground" />
          {t('data.exportTitle')}
        </CardTitle>
        <CardDescription>{t('data.exportText')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {latest.isPending ? (
          <Skeleton className="h-9 w-48" />
        ) : latest.isError ? (
          <RetryAlert
            title={errorText(latest.error, t('data.loadFailed'))}
            onRetry={() => latest.refetch()}
          />
        ) : building ? (
          <div className="space-y-2" role="status">
            <p className="text-sm">{t('data.building', { done: current.done, total: current.total })}</p>
            <progress
              className="h-2 w-full max-w-md accent-[var(--primary)]"
              max={Math.max(current.total, 1)}
              value={current.done}
              aria-label={t('data.progress')}
            />
          </div>
        ) : current?.status === 'ready' ? (
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={() => download.mutate(current.id)} disabled={download.isPending}>
              <Download aria-hidden />
              {download.isPending ? t('data.downloading') : t('data.download')}
            </Button>
            <p className="text-sm text-muted-foreground">{t('data.readyOnce')}</p>
          </div>
        ) : (
          <div className="space-y-2">
            {current?.status === 'downloaded' && current.downloadedAt && (
              <p className="text-sm text-muted-foreground">
                {t('data.lastDownloaded', {
                  date: formatLongDateTime(current.downloadedAt, currentLanguage()),
                })}
              </p>
            )}
            {current?.status === 'failed' && <Alert tone="error">{t('data.failed')}</Alert>}
            <Button
              variant="outline"
              disabled={start.isPending}
              onClick={() =>
                start.mutate(undefined, {
                  onError: (error) =>
                    toast({ title: errorText(error, t('data.startFailed')), tone: 'error' }),
                })
              }
            >
              <FileArchive aria-hidden />
              {t('data.start')}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  )
}

const checkQuery = operationQuery(dataRightsOperations.deletionCheck, {})

/** 'Delete my account': what goes, what stays, what stops it; confirmed with the password or a mailed code. */
export function DeleteAccountCard() {
  const { t } = useTranslation('account')
  const queryClient = useQueryClient()
  const check = useQuery({ ...checkQuery, staleTime: 0 })
  const [open, setOpen] = useState(false)
  const [secret, setSecret] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const sendCode = useMutation({ mutationFn: () => callOperation(dataRightsOperations.sendDeletionCode, {}) })
  const remove = useMutation({
    mutationFn: (body: { password?: string; code?: string }) =>
      callOperation(dataRightsOperations.deleteAccount, { body }),
    onSuccess: () => replaceSession(queryClient, null),
  })
  const data = check.data
  const blocked = data && (data.soleAdminOf.length > 0 || data.lastGlobalAdmin)

  const onConfirm = () => {
    if (!data) return
    setProblem(null)
    remove.mutate(data.confirmWith === 'password' ? { password: secret } : { code: secret.trim() }, {
      onError: (error) =>
        setProblem(
          error instanceof ApiError
            ? (Object.values(error.fields ?? {})[0] ?? error.message)
            : errorText(error, t('delete.failed')),
        ),
    })
  }

  return (
    <Card role="region" aria-label={t('delete.title')} className="border-destructive/40">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-destructive">
          <Trash2 aria-hidden className="size-4" />
          {t('delete.title')}
        </CardTitle>
        <CardDescription>{t('delete.text')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {check.isPending ? (
          <Skeleton className="h-9 w-48" />
        ) : check.isError ? (
          <RetryAlert
            title={errorText(check.error, t('delete.loadFailed'))}
            onRetry={() => check.refetch()}
          />
        ) : (
          <>
            <ul className="list-disc space-y-1 pl-5 text-sm">
              <li>{t('delete.goesPrompts', { count: data!.personalPrompts })}</li>
              <li>{t('delete.goesConversations', { count: data!.personalConversations })}</li>
              <li>{t('delete.goesAccess', { count: data!.apiKeys })}</li>
              <li>{t('delete.staysTeam', { count: data!.teamPrompts })}</li>
            </ul>
            {data!.soleAdminOf.length > 0 && (
              <Alert tone="error" title={t('delete.soleAdmin')}>
                <ul className="mt-1 space-y-0.5">
                  {data!.soleAdminOf.map((team) => (
                    <li key={team.id}>
                      <Link className="underline" to={`/team/${team.id}/manage`}>
                        {team.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              </Alert>
            )}
            {data!.lastGlobalAdmin && <Alert tone="error">{t('delete.lastGlobalAdmin')}</Alert>}
            <Button variant="destructive" disabled={Boolean(blocked)} onClick={() => setOpen(true)}>
              <Trash2 aria-hidden />
              {t('delete.open')}
            </Button>
          </>
        )}
      </CardContent>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next)
          setSecret('')
          setProblem(null)
        }}
      >
        <DialogContent title={t('delete.confirmTitle')} description={t('delete.confirmText')}>
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault()
              onConfirm()
            }}
          >
            {data?.confirmWith === 'code' && (
              <div className="space-y-2">
                <p className="text-sm">{t('delete.codeHint')}</p>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={sendCode.isPending}
                  onClick={() =>
                    sendCode.mutate(undefined, {
                      onSuccess: () => toast({ title: t('delete.codeSent'), tone: 'success' }),
                      onError: (error) => setProblem(errorText(error, t('delete.failed'))),
                    })
                  }
                >
                  {t('delete.sendCode')}
                </Button>
              </div>
            )}
            <Field
              label={data?.confirmWith === 'code' ? t('delete.code') : t('delete.password')}
              error={problem ?? undefined}
            >
              <Input
                type={data?.confirmWith === 'code' ? 'text' : 'password'}
                inputMode={data?.confirmWith === 'code' ? 'numeric' : undefined}
                autoComplete={data?.confirmWith === 'code' ? 'one-time-code' : 'current-password'}
                value={secret}
                onChange={(event) => setSecret(event.target.value)}
              />
            </Field>
            <DialogFooter>
              <Button variant="outline" onClick={() => setOpen(false)} disabled={remove.isPending}>
                {t('delete.cancel')}
              </Button>
              <Button type="submit" variant="destructive" disabled={secret.trim() === '' || remove.isPending}>
                {remove.isPending ? t('delete.deleting') : t('delete.confirm')}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  )
}
