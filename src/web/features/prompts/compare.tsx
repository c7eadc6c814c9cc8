import { useQuery } from '@tanstack/react-query'
import { GitCompare } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PromptType } from '../../../domain/prompt-names.ts'
import { diffableText } from '../../../domain/prompt-variables.ts'
import type { VersionSummary } from '../../../domain/prompts.ts'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Dialog, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Select } from '../../components/ui/input.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { errorText } from '../../lib/api.ts'
import { promptVersionQuery, usePromptVersions } from './queries.ts'

/** jsdiff and the viewer load only with the dialogs and panels that show a diff. */
const DiffView = lazy(() => import('./diff-view.tsx'))

export function LazyDiffView(props: {
  oldText: string
  newText: string
  oldLabel: string
  newLabel: string
}) {
  const { t } = useTranslation('craft')
  return (
    <Suspense fallback={<Spinner label={t('diff.loading')} />}>
      <DiffView {...props} />
    </Suspense>
  )
}

function VersionsDiff({
  promptId,
  type,
  fromId,
  toId,
  fromLabel,
  toLabel,
}: {
  promptId: string
  type: PromptType
  fromId: string
  toId: string
  fromLabel: string
  toLabel: string
}) {
  const { t } = useTranslation('craft')
  const from = useQuery(promptVersionQuery(promptId, fromId))
  const to = useQuery(promptVersionQuery(promptId, toId))
  if (from.isPending || to.isPending) return <Spinner label={t('diff.loading')} />
  if (from.isError || to.isError) {
    return (
      <RetryAlert
        title={errorText(from.error ?? to.error, t('diff.failed'))}
        onRetry={() => {
          void from.refetch()
          void to.refetch()
        }}
      />
    )
  }
  return (
    <LazyDiffView
      oldText={diffableText(type, from.data.body)}
      newText={diffableText(type, to.data.body)}
      oldLabel={fromLabel}
      newLabel={toLabel}
    />
  )
}

/**
 * 'Compare' on a history entry: that version against the current one, in a dialog where either
 * side can be any other version.
 */
export function CompareVersionsButton({
  promptId,
  type,
  version,
  currentVersionId,
}: {
  promptId: string
  type: PromptType
  version: VersionSummary
  currentVersionId: string | null
}) {
  const { t } = useTranslation('craft')
  const prompts = useTranslation('prompts')
  const [open, setOpen] = useState(false)
  const versions = usePromptVersions(promptId, open)
  const items = versions.data?.pages.flatMap((page) => page.items) ?? [version]
  const [fromId, setFromId] = useState(version.id)
  const [toId, setToId] = useState(currentVersionId ?? version.id)
  const optionLabel = (item: VersionSummary) =>
    item.id === currentVersionId
      ? t('diff.currentOption', { number: item.versionNumber })
      : t('diff.versionOption', { number: item.versionNumber })
  const labelOf = (id: string) => {
    const item = items.find((candidate) => candidate.id === id)
    return item ? optionLabel(item) : ''
  }
  const versionTitle = prompts.t('detail.version', { number: version.versionNumber })
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`${t('diff.compare')}: ${versionTitle}`}>
          <GitCompare aria-hidden />
          {t('diff.compare')}
        </Button>
      </DialogTrigger>
      <DialogContent
        title={t('diff.compareTitle')}
        description={t('diff.compareDescription')}
        className="max-w-5xl"
      >
        <div className="flex flex-wrap gap-3">
          <Field label={t('diff.from')} className="w-60">
            <Select value={fromId} onChange={(event) => setFromId(event.target.value)}>
              {items.map((item) => (
                <option key={item.id} value={item.id}>
                  {optionLabel(item)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('diff.to')} className="w-60">
            <Select value={toId} onChange={(event) => setToId(event.target.value)}>
              {items.map((item) => (
                <option key={item.id} value={item.id}>
                  {optionLabel(item)}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        {open && (
          <VersionsDiff
            promptId={promptId}
            type={type}
            fromId={fromId}
            toId={toId}
            fromLabel={labelOf(fromId)}
            toLabel={labelOf(toId)}
          />
        )}
      </DialogContent>
    </Dialog>
  )
}
