import { ArrowLeft, FileQuestion } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Button } from '../../components/ui/button.tsx'
import { Card } from '../../components/ui/card.tsx'
import { Skeleton, Spinner } from '../../components/ui/skeleton.tsx'
import { ApiError, errorText } from '../../lib/api.ts'

/** The detail and edit pages while their prompt loads. */
export function PromptLoading() {
  const { t } = useTranslation('prompts')
  return (
    <div className="space-y-4" aria-busy="true">
      <Spinner label={t('detail.loading')} hideLabel />
      <Skeleton className="h-8 w-2/3" />
      <Skeleton className="h-4 w-1/2" />
      <Skeleton className="h-64 w-full rounded-xl" />
    </div>
  )
}

/** 'Prompt not found' (missing, or not shared with the user) or a load failure, with a way back. */
export function PromptLoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('prompts')
  const missing = error instanceof ApiError && error.status === 404
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-14 text-center">
      <FileQuestion aria-hidden className="size-8 text-muted-foreground" />
      <h1 className="text-lg font-semibold">{missing ? t('detail.notFound') : t('detail.loadFailed')}</h1>
      <p className="max-w-md text-sm text-muted-foreground">
        {missing ? t('detail.notFoundText') : errorText(error, t('detail.loadFailed'))}
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button asChild variant={missing ? 'primary' : 'outline'}>
          <Link to="/prompts">
            <ArrowLeft aria-hidden />
            {t('detail.back')}
          </Link>
        </Button>
        {!missing && <Button onClick={onRetry}>{t('retry', { ns: 'common' })}</Button>}
      </div>
    </Card>
  )
}
