import { CheckCircle2, CircleSlash, RefreshCw, XCircle } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { DiagnosticCheck } from '../../../domain/auth.ts'
import { PageHeader } from '../../components/page-header.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { CodeBlock } from '../../components/ui/code-block.tsx'
import { Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
// Not through index.ts: that would load the admin screen's chart library with this page.
import { useAdminProbes, useCodeSignInProbe } from '../../features/admin/index.ts'
import {
  currentOAuthStrategy,
  useAuthDiagnostics,
  useAuthFlowTest,
  useAuthProviders,
  useCurrentUser,
  useMySessions,
  useRawAuthAnswers,
  useRefreshSession,
  useSignOutOtherSessions,
} from '../../features/auth/index.ts'
import { DebugLogPanel } from '../../features/system/index.ts'
import { errorText } from '../../lib/api.ts'
import { formatDateTime, formatTime } from '../../lib/format.ts'
import { type ScreenKey, useScreenTitle } from '../placeholder.tsx'

function StatusIcon({ check }: { check: DiagnosticCheck | null | undefined }) {
  const { t } = useTranslation('diagnostics')
  if (!check)
    return (
      <span className="inline-flex items-center gap-1.5 text-muted-foreground">
        <CircleSlash aria-hidden className="size-4" />
        {t('notConfigured')}
      </span>
    )
  return check.ok ? (
    <span className="inline-flex items-center gap-1.5 text-success">
      <CheckCircle2 aria-hidden className="size-4" />
      {t('ok')}
      {check.latencyMs !== null && (
        <span className="text-muted-foreground">· {t('ms', { ms: check.latencyMs })}</span>
      )}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1.5 text-destructive">
      <XCircle aria-hidden className="size-4" />
      {t('failed')}
      {check.error && <span className="break-all text-muted-foreground">· {check.error}</span>}
    </span>
  )
}

function Rows({ children }: { children: ReactNode }) {
  return <dl className="divide-y text-sm">{children}</dl>
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 py-2.5 sm:flex-row sm:justify-between sm:gap-6">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words sm:text-right">{children}</dd>
    </div>
  )
}

function RunAgain({ fetching, onClick }: { fetching: boolean; onClick: () => void }) {
  const { t } = useTranslation('diagnostics')
  return (
    <Button variant="outline" onClick={onClick} disabled={fetching}>
      <RefreshCw className={fetching ? 'animate-spin' : undefined} />
      {fetching ? t('running') : t('runAgain')}
    </Button>
  )
}

type Diagnostics = NonNullable<ReturnType<typeof useAuthDiagnostics>['data']>

/** The diagnostics query's loading and error states around its content. */
function WithDiagnostics({ children }: { children: (data: Diagnostics) => ReactNode }) {
  const { t } = useTranslation('diagnostics')
  const diagnostics = useAuthDiagnostics()
  if (diagnostics.isPending) return <Skeleton className="h-48" />
  if (diagnostics.isError)
    return (
      <Alert tone="error" title={t('loadFailed')}>
        {errorText(diagnostics.error, '')}
      </Alert>
    )
  return <>{children(diagnostics.data)}</>
}

/** A page showing the diagnostics: its title, 'Run again', then the content once they loaded. */
function DiagnosticsScreen({
  screen,
  children,
}: {
  screen: ScreenKey
  children: (data: Diagnostics) => ReactNode
}) {
  const title = useScreenTitle(screen)
  const { t } = useTranslation('diagnostics')
  const diagnostics = useAuthDiagnostics()
  return (
    <>
      <PageHeader
        title={title}
        description={t('subtitle')}
        actions={<RunAgain fetching={diagnostics.isFetching} onClick={() => void diagnostics.refetch()} />}
      />
      <WithDiagnostics>{children}</WithDiagnostics>
      <div className="mt-6">
        <DebugLogPanel />
      </div>
    </>
  )
}

/** /debug-auth: this session as the server sees it, the user's sessions, refresh and sign-out of others. */
export function DebugAuthPage() {
  const title = useScreenTitle('debugAuth')
  const { t } = useTranslation('diagnostics')
  const user = useCurrentUser()
  const sessions = useMySessions()
  const signOutOthers = useSignOutOtherSessions()
  const refresh = useRefreshSession()
  return (
    <>
      <PageHeader
        title={title}
        description={t('subtitle')}
        actions={
          <Button
            variant="outline"
            disabled={refresh.isPending}
            onClick={() =>
              refresh.mutate(undefined, {
                onSuccess: () => toast({ title: t('session.refreshed'), tone: 'success' }),
              })
            }
          >
            <RefreshCw className={refresh.isPending ? 'animate-spin' : undefined} />
            {t('session.refresh')}
          </Button>
        }
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t('session.title')}</CardTitle>
          </CardHeader>
          <CardContent>
            <WithDiagnostics>
              {(data) => (
                <Rows>
                  <Row label={t('session.user')}>{user.email}</Row>
                  <Row label={t('session.role')}>{user.globalRole}</Row>
                  <Row label={t('session.id')}>
                    <code>{data.session.id.slice(0, 8)}…</code>
                  </Row>
                  <Row label={t('session.created')}>{formatDateTime(data.session.createdAt)}</Row>
                  <Row label={t('session.expires')}>{formatDateTime(data.session.expiresAt)}</Row>
                  <Row label={t('session.absolute')}>{formatDateTime(data.session.absoluteExpiresAt)}</Row>
                  <Row label={t('session.ip')}>{data.session.ipAddress || t('none')}</Row>
                  <Row label={t('session.agent')}>{data.session.userAgent || t('none')}</Row>
                </Rows>
              )}
            </WithDiagnostics>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('session.sessions')}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-4">
            {sessions.isPending ? (
              <Skeleton className="h-24" />
            ) : sessions.isError ? (
              <Alert tone="error">{errorText(sessions.error, '')}</Alert>
            ) : (
              <ul className="divide-y rounded-lg border text-sm">
                {sessions.data.map((item) => (
                  <li key={item.id} className="flex items-center justify-between gap-3 p-3">
                    <div className="min-w-0">
                      <p className="truncate">{item.userAgent || t('none')}</p>
                      <p className="text-xs text-muted-foreground">
                        <RelativeTime value={new Date(item.createdAt).toISOString()} /> ·{' '}
                        {item.ipAddress || t('none')}
                      </p>
                    </div>
                    {item.current && <Badge variant="primary">{t('session.current')}</Badge>}
                  </li>
                ))}
              </ul>
            )}
            <Button
              variant="outline"
              disabled={signOutOthers.isPending}
              onClick={() =>
                signOutOthers.mutate(undefined, {
                  onSuccess: () => {
                    toast({ title: t('session.signedOutOthers'), tone: 'success' })
                    void sessions.refetch()
                  },
                })
              }
            >
              {t('session.signOutOthers')}
            </Button>
          </CardContent>
        </Card>
      </div>
    </>
  )
}

/** /auth-test: the calls a sign-in depends on, run one after another from this browser. */
export function AuthTestPage() {
  const title = useScreenTitle('authTest')
  const { t } = useTranslation('diagnostics')
  const flow = useAuthFlowTest()
  return (
    <>
      <PageHeader
        title={title}
        description={t('subtitle')}
        actions={<RunAgain fetching={flow.isFetching} onClick={() => void flow.refetch()} />}
      />
      <Card>
        <CardHeader>
          <CardTitle>{t('flow.title')}</CardTitle>
        </CardHeader>
        <CardContent>
          {flow.isPending ? (
            <Skeleton className="h-48" />
          ) : flow.isError ? (
            <Alert tone="error">{errorText(flow.error, '')}</Alert>
          ) : (
            <ol className="divide-y text-sm">
              {flow.data.map((item) => (
                <li
                  key={item.label}
                  className="flex flex-col gap-1 py-2.5 sm:flex-row sm:items-center sm:justify-between"
                >
                  <span className="inline-flex items-center gap-2">
                    {item.ok ? (
                      <CheckCircle2 aria-label={t('ok')} className="size-4 text-success" />
                    ) : (
                      <XCircle aria-label={t('failed')} className="size-4 text-destructive" />
                    )}
                    {item.label}
                  </span>
                  <span className="break-words text-muted-foreground">
                    {item.detail} · {t('ms', { ms: item.ms })}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
    </>
  )
}

/** /auth-debug-test: the raw answers of the session and provider endpoints, as JSON. */
export function AuthDebugTestPage() {
  const title = useScreenTitle('authDebugTest')
  const { t } = useTranslation('diagnostics')
  const raw = useRawAuthAnswers()
  return (
    <>
      <PageHeader
        title={title}
        description={t('raw.hint')}
        actions={<RunAgain fetching={raw.isFetching} onClick={() => void raw.refetch()} />}
      />
      {raw.isPending ? (
        <Skeleton className="h-64" />
      ) : raw.isError ? (
        <Alert tone="error">{errorText(raw.error, '')}</Alert>
      ) : (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          {raw.data.map(({ call, answer }) => (
            <Card key={call}>
              <CardHeader>
                <CardTitle>
                  <code>{call}</code>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <CodeBlock label={call} className="max-h-96 p-3 text-xs">
                  {JSON.stringify(answer, null, 2)}
                </CodeBlock>
              </CardContent>
            </Card>
          ))}
        </div>
      )}
    </>
  )
}

/** One sign-in provider's configuration on /diagnosis. */
function ProviderCard({ name, children }: { name: string; children: ReactNode }) {
  const { t } = useTranslation('diagnostics')
  return (
    <Card>
      <CardHeader>
        <CardTitle>{name}</CardTitle>
        <CardDescription>{t('oauth.title')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Rows>{children}</Rows>
      </CardContent>
    </Card>
  )
}

/** /diagnosis: provider configuration, the discovery check and the redirect URIs to register. */
export function DiagnosisPage() {
  const { t } = useTranslation('diagnostics')
  const strategies = useTranslation('mail').t
  const preview = useAuthProviders().data?.preview
  return (
    <DiagnosticsScreen screen="diagnosis">
      {(data) => (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <ProviderCard name="Google">
            <Row label={t('oauth.issuer')}>{data.google.issuer ?? t('notConfigured')}</Row>
            <Row label={t('oauth.callback')}>
              <code className="break-all">{data.google.callbackUrl}</code>
            </Row>
            <Row label={t('oauth.discovery')}>
              <StatusIcon check={data.google.discovery} />
            </Row>
          </ProviderCard>
          <ProviderCard name="Apple">
            <Row label={t('oauth.title')}>{data.apple.configured ? t('ok') : t('notConfigured')}</Row>
            <Row label={t('oauth.callback')}>
              <code className="break-all">{data.apple.callbackUrl}</code>
            </Row>
            <Row label={t('oauth.strategy')}>
              {strategies(`oauthTest.strategies.${currentOAuthStrategy(preview)}`)}
            </Row>
          </ProviderCard>
        </div>
      )}
    </DiagnosticsScreen>
  )
}

/** The server's probes: a count query on conversations, a team's members, a code sign-in. */
function ProbesCard() {
  const { t } = useTranslation('diagnostics')
  const probes = useAdminProbes()
  const codeProbe = useCodeSignInProbe()
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="space-y-1.5">
          <CardTitle>{t('probes.title')}</CardTitle>
          <CardDescription>{t('probes.hint')}</CardDescription>
        </div>
        <RunAgain fetching={probes.isFetching} onClick={() => void probes.refetch()} />
      </CardHeader>
      <CardContent>
        {probes.isPending ? (
          <Skeleton className="h-24" />
        ) : probes.isError ? (
          <Alert tone="error" title={t('loadFailed')}>
            {errorText(probes.error, '')}
          </Alert>
        ) : (
          <Rows>
            <Row label={t('probes.conversations')}>
              <StatusIcon check={probes.data.conversationCount} />
              {probes.data.conversationCount.count !== null && (
                <span className="ml-2 tabular-nums">
                  {t('probes.count', { count: probes.data.conversationCount.count })}
                </span>
              )}
            </Row>
            <Row
              label={
                probes.data.teamMembers.teamName
                  ? t('probes.teamMembersOf', { team: probes.data.teamMembers.teamName })
                  : t('probes.teamMembers')
              }
            >
              <StatusIcon
                check={
                  probes.data.teamMembers.error === 'no_team' ||
                  probes.data.teamMembers.error === 'team_not_found'
                    ? { ...probes.data.teamMembers, error: t(`probes.${probes.data.teamMembers.error}`) }
                    : probes.data.teamMembers
                }
              />
              {probes.data.teamMembers.ok && (
                <span className="ml-2 break-all text-muted-foreground">
                  {probes.data.teamMembers.members
                    .map((member) => `${member.email} (${member.role})`)
                    .join(', ')}
                </span>
              )}
            </Row>
          </Rows>
        )}
        <div className="mt-4 flex flex-col gap-2 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="text-sm">
            <p className="font-medium">{t('probes.code')}</p>
            <p className="text-muted-foreground">{t('probes.codeHint')}</p>
            {codeProbe.data && (
              <p className="mt-1" role="status">
                <StatusIcon check={codeProbe.data} />{' '}
                {codeProbe.data.ok && t('probes.codeSent', { email: codeProbe.data.email })}
              </p>
            )}
            {codeProbe.isError && (
              <p className="mt-1 text-destructive" role="alert">
                {errorText(codeProbe.error, '')}
              </p>
            )}
          </div>
          <Button variant="outline" disabled={codeProbe.isPending} onClick={() => codeProbe.mutate()}>
            {codeProbe.isPending ? t('running') : t('probes.codeRun')}
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}

/** /quick-diagnosis: one glance at everything sign-in depends on, and the server's probes. */
export function QuickDiagnosisPage() {
  const { t } = useTranslation('diagnostics')
  return (
    <DiagnosticsScreen screen="quickDiagnosis">
      {(data) => (
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardDescription>{t('checkedAt', { time: formatTime(data.checkedAt) })}</CardDescription>
            </CardHeader>
            <CardContent>
              <Rows>
                <Row label={`${t('quick.api')} (${data.database.kind})`}>
                  <StatusIcon check={data.database} />
                </Row>
                <Row label={t('quick.session')}>{formatDateTime(data.session.expiresAt)}</Row>
                <Row label={t('quick.google')}>
                  <StatusIcon check={data.google.discovery} />
                </Row>
                <Row label={t('quick.smtp')}>
                  {data.smtp.configured ? <StatusIcon check={data.smtp.connection} /> : t('quick.smtpOff')}
                </Row>
                <Row label={t('quick.failed')}>
                  <span className="tabular-nums">{data.failedSignInsLast24h}</span>
                </Row>
              </Rows>
            </CardContent>
          </Card>
          <ProbesCard />
        </div>
      )}
    </DiagnosticsScreen>
  )
}
