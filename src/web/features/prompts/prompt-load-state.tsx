import { FileQuestion } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { LoadFailedState } from '../../components/empty-state.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'

/** The detail and edit pages while their prompt loads. */
export function PromptLoading() {
  const { t } = useTranslation('prompts')
  return (
    <LoadingSkeletons label={t('detail.loading')} className="space-y-4">
      <Skeleton className="h-8 w-2/3" />
      <Skeleton className="h-4 w-1/2" />
      <Skeleton className="h-64 w-full rounded-xl" />
    </LoadingSkeletons>
  )
}

/** 'Prompt not found' (missing, or not shared with the user) or a load failure, with a way back. */
export function PromptLoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('prompts')
  return (
    <LoadFailedState
      error={error}
      onRetry={onRetry}
      icon={FileQuestion}
      notFoundTitle={t('detail.notFound')}
      notFoundText={t('detail.notFoundText')}
      failedTitle={t('detail.loadFailed')}
      back={{ to: '/prompts', label: t('detail.back') }}
    />
  )
}
