import { KeyRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ConfirmAction } from '../../components/confirm-action.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { errorText } from '../../lib/api.ts'
import { useApiKeys, useRevokeApiKey } from './queries.ts'

/** A space's keys: loading, failed (with Retry), none yet, or each key with its use and 'Revoke'. */
export function KeyList({ teamId }: { teamId: string | null }) {
  const { t } = useTranslation('publicApi')
  const keys = useApiKeys(teamId)
  const revoke = useRevokeApiKey()
  if (keys.isPending) {
    return (
      <LoadingSkeletons label={t('loading')} className="space-y-3">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </LoadingSkeletons>
    )
  }
  if (keys.isError) {
    return <RetryAlert title={errorText(keys.error, t('loadFailed'))} onRetry={() => void keys.refetch()} />
  }
  if (keys.data.items.length === 0) {
    return <EmptyState icon={KeyRound} title={t('empty')} text={t('emptyText')} />
  }
  return (
    <ul className="divide-y rounded-lg border" aria-label={t('keys')}>
      {keys.data.items.map((key) => (
        <li
          key={key.id}
          aria-label={key.name}
          className="flex flex-wrap items-center justify-between gap-3 p-4"
        >
          <div className="min-w-0 space-y-1">
            <p className="flex flex-wrap items-center gap-2 font-medium">
              {key.name}
              <Badge variant="outline">{key.scope === 'read' ? t('scopeRead') : t('scopeReadWrite')}</Badge>
            </p>
            <p className="font-mono text-xs break-all text-muted-foreground">
              {key.publicKey} · {key.secretHint}
            </p>
            <p className="text-xs text-muted-foreground">
              {key.createdByEmail && `${t('createdBy', { email: key.createdByEmail })} · `}
              <RelativeTime value={key.createdAt} /> ·{' '}
              {key.lastUsedAt ? (
                <>
                  {t('lastUsed')} <RelativeTime value={key.lastUsedAt} />
                </>
              ) : (
                t('neverUsed')
              )}
            </p>
          </div>
          <ConfirmAction
            action={revoke}
            variables={key.id}
            texts={{
              action: t('revoke'),
              actionLabel: `${t('revoke')}: ${key.name}`,
              title: t('revokeTitle', { name: key.name }),
              text: t('revokeText'),
              done: t('revoked'),
              failed: t('revokeFailed'),
            }}
          />
        </li>
      ))}
    </ul>
  )
}
