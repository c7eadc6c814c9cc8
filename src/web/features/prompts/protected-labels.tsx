import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Plus, ShieldCheck } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { LABEL_PATTERN, LATEST_LABEL } from '../../../domain/prompt-names.ts'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge, RemovableBadge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Input } from '../../components/ui/input.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { message } from '../../i18n/index.ts'
import { callOperation, errorText } from '../../lib/api.ts'
import { invalidateOperations, operationQuery } from '../../lib/queries.ts'

/**
 * The team's protected labels: only team admins move them (in the app and through API keys).
 * Admins add and remove them here; members see which they are.
 */
export function ProtectedLabelsCard({ teamId, editable }: { teamId: string; editable: boolean }) {
  const { t } = useTranslation('publicApi')
  const id = useId()
  const queryClient = useQueryClient()
  const labels = useQuery(operationQuery(promptLabelOperations.protectedLabels, { params: { teamId } }))
  const save = useMutation({
    mutationFn: (next: string[]) =>
      callOperation(promptLabelOperations.setProtectedLabels, { params: { teamId }, body: { labels: next } }),
    onSuccess: () => invalidateOperations(queryClient, promptLabelOperations, promptOperations),
  })
  const [draft, setDraft] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const current = labels.data?.items ?? []

  const replace = (next: string[], done: string) =>
    save.mutate(next, {
      onSuccess: () => toast({ title: done, tone: 'success' }),
      onError: (error) => toast({ title: errorText(error, t('protectedFailed')), tone: 'error' }),
    })
  const add = (event: FormEvent) => {
    event.preventDefault()
    const label = draft.trim()
    if (label === LATEST_LABEL) return setProblem(message('prompts.labelLatest'))
    if (!LABEL_PATTERN.test(label)) return setProblem(message('prompts.labelInvalid'))
    setProblem(null)
    setDraft('')
    if (!current.includes(label)) replace([...current, label], t('protectedAdded', { label }))
  }

  return (
    <Card role="region" aria-label={t('protectedTitle')}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck aria-hidden className="size-4 text-muted-foreground" />
          {t('protectedTitle')}
        </CardTitle>
        <CardDescription>{t('protectedText')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {labels.isPending ? (
          <LoadingSkeletons label={t('protectedLoading')}>
            <Skeleton className="h-6 w-48" />
          </LoadingSkeletons>
        ) : labels.isError ? (
          <RetryAlert
            title={errorText(labels.error, t('protectedLoadFailed'))}
            onRetry={() => labels.refetch()}
          />
        ) : current.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('protectedNone')}</p>
        ) : (
          <ul className="flex flex-wrap gap-1.5" aria-label={t('protectedTitle')}>
            {current.map((label) => (
              <li key={label}>
                {editable ? (
                  <RemovableBadge
                    removeLabel={t('protectedRemove', { label })}
                    onRemove={() =>
                      replace(
                        current.filter((other) => other !== label),
                        t('protectedRemoved', { label }),
                      )
                    }
                  >
                    {label}
                  </RemovableBadge>
                ) : (
                  <Badge>{label}</Badge>
                )}
              </li>
            ))}
          </ul>
        )}
        {editable ? (
          <form onSubmit={add} className="space-y-1.5">
            <label htmlFor={id} className="text-sm font-medium">
              {t('protectedAdd')}
            </label>
            <div className="flex max-w-md gap-2">
              <Input
                id={id}
                value={draft}
                placeholder="production"
                autoComplete="off"
                spellCheck={false}
                aria-invalid={problem ? true : undefined}
                aria-describedby={`${id}-hint`}
                onChange={(event) => {
                  setDraft(event.target.value)
                  setProblem(null)
                }}
              />
              <Button type="submit" variant="outline" disabled={draft.trim() === '' || save.isPending}>
                <Plus aria-hidden />
                {t('protectedAddButton')}
              </Button>
            </div>
            {problem ? (
              <p id={`${id}-hint`} role="alert" className="text-xs font-medium text-destructive">
                {problem}
              </p>
            ) : (
              <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                {t('protectedHint')}
              </p>
            )}
          </form>
        ) : (
          <p className="text-xs text-muted-foreground">{t('protectedAdminsOnly')}</p>
        )}
      </CardContent>
    </Card>
  )
}
