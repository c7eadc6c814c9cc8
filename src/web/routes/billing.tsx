import { useTranslation } from 'react-i18next'
import { PageHeader } from '../components/page-header.tsx'
import { RetryAlert } from '../components/ui/alert.tsx'
import { LoadingSkeletons, Skeleton } from '../components/ui/skeleton.tsx'
import { BillingSpaceCard, useBilling } from '../features/plans/index.ts'
import { errorText } from '../lib/api.ts'
import { useDocumentTitle } from '../lib/use-document-title.ts'

/** /billing: the personal space and each team the user administers. */
export function BillingPage() {
  const { t } = useTranslation('plans')
  useDocumentTitle(t('billing.title'))
  const billing = useBilling()
  return (
    <>
      <PageHeader title={t('billing.title')} description={t('billing.subtitle')} />
      {billing.isPending ? (
        <LoadingSkeletons label={t('billing.loading')} className="space-y-4">
          {[0, 1].map((key) => (
            <Skeleton key={key} className="h-72 w-full rounded-xl" />
          ))}
        </LoadingSkeletons>
      ) : billing.isError ? (
        <RetryAlert title={t('billing.loadFailed')} onRetry={() => billing.refetch()}>
          {errorText(billing.error, t('billing.loadFailed'))}
        </RetryAlert>
      ) : (
        <div className="space-y-6">
          {billing.data.map((space) => (
            <BillingSpaceCard key={space.entitlements.teamId ?? 'personal'} space={space} />
          ))}
        </div>
      )}
    </>
  )
}
