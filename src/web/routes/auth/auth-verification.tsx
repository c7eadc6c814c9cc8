import { useQuery, useQueryClient } from '@tanstack/react-query'
import { RefreshCw } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import {
  fetchRecoverySession,
  sessionQuery,
  useAuthProviders,
  useSession,
} from '../../features/auth/index.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { AuthCard } from './auth-layout.tsx'

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 border-b py-3 last:border-b-0 sm:flex-row sm:items-center sm:justify-between">
      <dt className="text-sm font-medium">{label}</dt>
      <dd className="text-sm text-muted-foreground">{children}</dd>
    </div>
  )
}

/** Auth verification: this browser's session, reset session, providers and mail — all live. */
export function AuthVerificationPage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('verification.title'))
  const queryClient = useQueryClient()
  const session = useSession()
  const providers = useAuthProviders()
  const recovery = useQuery({
    queryKey: ['auth', 'recovery'],
    queryFn: () => fetchRecoverySession().catch(() => null),
  })
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: ['auth'] }),
    ])
  const loading = session.isFetching || providers.isFetching || recovery.isFetching
  const flag = (on: boolean | undefined) =>
    on ? (
      <Badge variant="success">{t('verification.configured')}</Badge>
    ) : (
      <Badge variant="outline">{t('verification.notConfigured')}</Badge>
    )

  return (
    <AuthCard title={t('verification.title')} subtitle={t('verification.subtitle')}>
      {session.isPending || providers.isPending || recovery.isPending ? (
        <LoadingSkeletons label={t('verification.loading')} className="space-y-3">
          <Skeleton className="h-6" />
          <Skeleton className="h-6" />
          <Skeleton className="h-6" />
        </LoadingSkeletons>
      ) : (
        <dl>
          <Row label={t('verification.session')}>
            {session.data
              ? t('verification.signedInAs', { email: session.data.email })
              : t('verification.signedOut')}
          </Row>
          {session.data && <Row label={t('verification.role')}>{session.data.globalRole}</Row>}
          <Row label={t('verification.recovery')}>
            {recovery.data
              ? t('verification.recoveryActive', { email: recovery.data.email })
              : t('verification.recoveryNone')}
          </Row>
          <Row label="Google">{flag(providers.data?.google)}</Row>
          <Row label="Apple">{flag(providers.data?.apple)}</Row>
          <Row label={t('verification.mail')}>
            {providers.data?.smtp ? t('verification.smtp') : t('verification.logOnly')}
          </Row>
        </dl>
      )}
      <Button variant="outline" className="mt-4 w-full" disabled={loading} onClick={() => void refresh()}>
        <RefreshCw className={loading ? 'animate-spin' : undefined} />
        {loading ? t('verification.checking') : t('verification.refresh')}
      </Button>
    </AuthCard>
  )
}
