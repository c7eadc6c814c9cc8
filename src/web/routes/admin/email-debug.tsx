import { zodResolver } from '@hookform/resolvers/zod'
import { Mail, RefreshCw, RotateCcw, Send } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { type MailStatus, mailStatuses, mailTestInput } from '../../../domain/mail.ts'
import { PageHeader } from '../../components/page-header.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { CodeBlock } from '../../components/ui/code-block.tsx'
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select } from '../../components/ui/input.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { useOutbox, useOutboxMail, useRetryMail, useSendTestMail } from '../../features/mail/index.ts'
import { ApiError, errorText } from '../../lib/api.ts'
import { applyServerErrors, fieldError } from '../../lib/forms.ts'
import { useCountdown } from '../../lib/use-countdown.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

const statusVariant: Record<MailStatus, 'warning' | 'success' | 'default' | 'destructive'> = {
  pending: 'warning',
  sent: 'success',
  logged: 'default',
  failed: 'destructive',
}

/** True for the answers the spec's email tool flags: HTTP 429 or a message about a rate limit. */
function isRateLimit(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 429 || /rate/i.test(error.message))
}

/** Email debug (admins): the outbox, with unsent mail readable, a test send, and retries. */
export function EmailDebugPage() {
  const { t } = useTranslation('mail')
  useDocumentTitle(t('debug.title'))
  return (
    <>
      <PageHeader title={t('debug.title')} description={t('debug.description')} />
      <EmailDebugTool />
    </>
  )
}

/** The email debug tool itself: on its page, and as the admin dashboard's Email Debug tab. */
export function EmailDebugTool() {
  const { t } = useTranslation('mail')
  const [status, setStatus] = useState<MailStatus | ''>('')
  const [to, setTo] = useState('')
  const [openId, setOpenId] = useState<string | null>(null)
  const filters = { status: status || undefined, to: to.trim() || undefined }
  const outbox = useOutbox(filters)
  const overview = outbox.data?.pages[0]
  const mails = outbox.data?.pages.flatMap((page) => page.items) ?? []
  const retry = useRetryMail()

  return (
    <>
      <div className="mb-4 flex justify-end">
        <Button variant="outline" onClick={() => void outbox.refetch()} disabled={outbox.isFetching}>
          <RefreshCw className={outbox.isFetching ? 'animate-spin' : undefined} />
          {t('debug.refresh')}
        </Button>
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardHeader>
            <CardTitle>{t('debug.delivery')}</CardTitle>
            {overview && (
              <CardDescription>
                {overview.smtpConfigured ? t('debug.smtpOn', { from: overview.from }) : t('debug.smtpOff')}
              </CardDescription>
            )}
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {mailStatuses.map((s) => (
                <div key={s} className="rounded-lg border p-3">
                  <dt className="text-xs text-muted-foreground">{t(`debug.counts.${s}`)}</dt>
                  <dd className="text-2xl font-semibold tabular-nums">
                    {overview ? overview.counts[s] : <Skeleton className="h-7 w-10" />}
                  </dd>
                </div>
              ))}
            </dl>
          </CardContent>
        </Card>
        <TestMailCard />
      </div>

      <Card className="mt-6">
        <CardHeader>
          <CardTitle>{t('debug.outbox')}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
            <Field label={t('debug.filterTo')}>
              <Input type="search" value={to} onChange={(event) => setTo(event.target.value)} />
            </Field>
            <Field label={t('debug.filterStatus')}>
              <Select value={status} onChange={(event) => setStatus(event.target.value as MailStatus | '')}>
                <option value="">{t('debug.allStatuses')}</option>
                {mailStatuses.map((s) => (
                  <option key={s} value={s}>
                    {t(`debug.counts.${s}`)}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          {outbox.isPending ? (
            <LoadingSkeletons label={t('debug.loading')} className="space-y-2">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-14" />
              ))}
            </LoadingSkeletons>
          ) : outbox.isError ? (
            <Alert tone="error" title={t('debug.loadFailed')}>
              {errorText(outbox.error, '')}
            </Alert>
          ) : mails.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">
              {filters.status || filters.to ? t('debug.emptyFiltered') : t('debug.empty')}
            </p>
          ) : (
            <ul className="divide-y rounded-lg border">
              {mails.map((mail) => (
                <li key={mail.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:gap-4">
                  <div className="min-w-0 flex-1 space-y-1">
                    <p className="truncate text-sm font-medium">{mail.subject}</p>
                    <p className="truncate text-xs text-muted-foreground">
                      {t('debug.to')}: {mail.to} · <RelativeTime value={mail.createdAt} /> ·{' '}
                      {t('debug.attempts')}: {mail.attempts}
                    </p>
                    {mail.lastError && (
                      <p className="truncate text-xs text-destructive">
                        {t('debug.lastError')}: {mail.lastError}
                      </p>
                    )}
                  </div>
                  <div className="flex shrink-0 items-center gap-2">
                    <Badge variant={statusVariant[mail.status]}>{t(`debug.counts.${mail.status}`)}</Badge>
                    <Button size="sm" variant="outline" onClick={() => setOpenId(mail.id)}>
                      <Mail />
                      {t('debug.view')}
                    </Button>
                    {mail.status === 'failed' && (
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={retry.isPending}
                        onClick={() =>
                          retry.mutate(mail.id, {
                            onSuccess: () => toast({ title: t('debug.retried'), tone: 'success' }),
                            onError: (error) =>
                              toast({
                                title: t('debug.retryFailed'),
                                description: errorText(error, ''),
                                tone: 'error',
                              }),
                          })
                        }
                      >
                        <RotateCcw />
                        {t('debug.retry')}
                      </Button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
          {outbox.hasNextPage && (
            <Button
              variant="outline"
              size="sm"
              disabled={outbox.isFetchingNextPage}
              onClick={() => void outbox.fetchNextPage()}
            >
              {outbox.isFetchingNextPage ? t('debug.loadingMore') : t('debug.loadMore')}
            </Button>
          )}
        </CardContent>
      </Card>
      <MailDialog id={openId} onClose={() => setOpenId(null)} />
    </>
  )
}

function TestMailCard() {
  const { t } = useTranslation('mail')
  const send = useSendTestMail()
  const countdown = useCountdown()
  const [formError, setFormError] = useState<string | null>(null)
  const form = useForm<z.input<typeof mailTestInput>, unknown, z.output<typeof mailTestInput>>({
    resolver: zodResolver(mailTestInput),
    defaultValues: { to: '' },
  })
  const onSubmit = form.handleSubmit(async (input) => {
    setFormError(null)
    try {
      await send.mutateAsync(input.to)
      toast({ title: t('debug.testQueued', { to: input.to }), tone: 'success' })
    } catch (error) {
      if (isRateLimit(error)) {
        countdown.start((error as ApiError).retryAfter ?? 60)
        return
      }
      setFormError(applyServerErrors(form.setError, error, t('debug.testFailed')))
    }
  })
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('debug.testTitle')}</CardTitle>
        <CardDescription>{t('debug.testHint')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="space-y-3">
          {countdown.remaining > 0 && (
            <Alert tone="error">{t('debug.rateFlag', { seconds: countdown.remaining })}</Alert>
          )}
          {formError && <Alert tone="error">{formError}</Alert>}
          <Field label={t('debug.testTo')} error={fieldError(form.formState.errors, 'to')}>
            <Input type="email" autoComplete="off" {...form.register('to')} />
          </Field>
          <Button
            type="submit"
            className="w-full"
            disabled={form.formState.isSubmitting || countdown.remaining > 0}
          >
            <Send />
            {form.formState.isSubmitting ? t('debug.testSending') : t('debug.testSend')}
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}

function MailDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation('mail')
  const mail = useOutboxMail(id)
  return (
    <Dialog open={id !== null} onOpenChange={(open) => !open && onClose()}>
      {id !== null && (
        <DialogContent
          title={mail.data ? t('debug.mailTitle', { to: mail.data.to }) : t('debug.view')}
          description={mail.data?.subject}
          className="max-w-2xl"
        >
          {mail.isPending ? (
            <Skeleton className="h-64" />
          ) : mail.isError ? (
            <Alert tone="error">{errorText(mail.error, '')}</Alert>
          ) : (
            <Tabs defaultValue="text">
              <TabsList>
                <TabsTrigger value="text">{t('debug.textPart')}</TabsTrigger>
                {mail.data.html && <TabsTrigger value="html">{t('debug.htmlPart')}</TabsTrigger>}
              </TabsList>
              <TabsContent value="text" className="mt-3">
                <CodeBlock label={t('debug.textPart')} className="max-h-96 p-3 font-sans text-sm">
                  {mail.data.text}
                </CodeBlock>
              </TabsContent>
              {mail.data.html && (
                <TabsContent value="html" className="mt-3">
                  {/* No scripts, no same-origin rights: the HTML is shown, never run. */}
                  <iframe
                    title={t('debug.htmlPart')}
                    sandbox=""
                    srcDoc={mail.data.html}
                    className="h-96 w-full rounded-lg border bg-white"
                  />
                </TabsContent>
              )}
            </Tabs>
          )}
        </DialogContent>
      )}
    </Dialog>
  )
}
