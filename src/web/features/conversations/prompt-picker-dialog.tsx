import { ChevronDown, ChevronUp, FileText } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PROMPT_LIMITS, type PromptScope, type PromptSummary } from '../../../domain/prompts.ts'
import { formatShortDate } from '../../../domain/time.ts'
import { SearchInput } from '../../components/search-input.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx'
import { LoadingSkeletons, Skeleton, Spinner } from '../../components/ui/skeleton.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { usePromptList, usePromptVersions } from '../prompts/index.ts'

/** What the picker hands back: a prompt, and a version of it or none ('latest'). */
export interface PickedPrompt {
  promptId: string
  promptVersionId: string | null
  title: string
  versionNumber: number | null
}

const pickerScopes: PromptScope[] = ['owner', 'team']

/**
 * Prompt picker: My Prompts / Team Prompts, search, and 'Attach latest' or a specific version.
 * `onPick` attaches (or queues) the choice; the dialog stays open while `busy`.
 */
export function PromptPickerDialog({
  open,
  onOpenChange,
  onPick,
  busy,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  onPick: (picked: PickedPrompt) => void
  busy?: boolean
}) {
  const { t } = useTranslation('conversations')
  const [scope, setScope] = useState<PromptScope>('owner')
  const [search, setSearch] = useState('')
  useEffect(() => {
    if (open) setSearch('')
  }, [open])

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t('picker.title')} description={t('picker.description')} className="max-w-xl">
        <Tabs
          value={scope}
          onValueChange={(value) => setScope(value as PromptScope)}
          className="flex min-h-0 flex-col gap-4"
        >
          <TabsList className="w-full">
            <TabsTrigger value="owner" className="flex-1 justify-center">
              {t('picker.mine')}
            </TabsTrigger>
            <TabsTrigger value="team" className="flex-1 justify-center">
              {t('picker.team')}
            </TabsTrigger>
          </TabsList>
          <SearchInput
            value={search}
            onSearch={setSearch}
            placeholder={t('picker.search')}
            label={t('picker.searchLabel')}
            maxLength={PROMPT_LIMITS.search}
          />
          {/* The tab's panel is the results of its scope (the search applies to both). */}
          {pickerScopes.map((value) => (
            <TabsContent key={value} value={value} className="min-h-0">
              {open && <PromptResults scope={value} search={search} onPick={onPick} busy={busy ?? false} />}
            </TabsContent>
          ))}
        </Tabs>
      </DialogContent>
    </Dialog>
  )
}

function PromptResults({
  scope,
  search,
  onPick,
  busy,
}: {
  scope: PromptScope
  search: string
  onPick: (picked: PickedPrompt) => void
  busy: boolean
}) {
  const { t } = useTranslation('conversations')
  const prompts = usePromptList({ scope, search, tags: [] })
  const items = prompts.data?.pages.flatMap((page) => page.items) ?? []

  if (prompts.isPending) {
    return (
      <LoadingSkeletons label={t('picker.loading')} className="space-y-2">
        {['a', 'b', 'c'].map((key) => (
          <Skeleton key={key} className="h-14 w-full" />
        ))}
      </LoadingSkeletons>
    )
  }
  if (prompts.isError) {
    return <RetryAlert title={t('picker.loadError')} onRetry={() => void prompts.refetch()} />
  }
  if (items.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 py-8 text-center text-sm text-muted-foreground">
        <FileText aria-hidden className="size-6" />
        <p>
          {search ? t('picker.noMatch') : scope === 'team' ? t('picker.emptyTeam') : t('picker.emptyMine')}
        </p>
        {!search && scope === 'owner' && (
          <Button asChild variant="outline" size="sm">
            <Link to="/prompts/new">{t('picker.createPrompt')}</Link>
          </Button>
        )}
      </div>
    )
  }
  return (
    <div className="-mx-2 max-h-[50dvh] overflow-y-auto px-2">
      <ul className="space-y-2" aria-label={scope === 'team' ? t('picker.team') : t('picker.mine')}>
        {items.map((prompt) => (
          <PromptRow key={prompt.id} prompt={prompt} onPick={onPick} busy={busy} />
        ))}
      </ul>
      {prompts.hasNextPage && (
        <div className="flex justify-center pt-3">
          <Button
            variant="outline"
            size="sm"
            disabled={prompts.isFetchingNextPage}
            onClick={() => void prompts.fetchNextPage()}
          >
            {prompts.isFetchingNextPage ? <Spinner label={t('list.loadingMore')} /> : t('picker.loadMore')}
          </Button>
        </div>
      )}
    </div>
  )
}

interface PickerRowProps {
  prompt: PromptSummary
  onPick: (picked: PickedPrompt) => void
  busy: boolean
}

function PromptRow({ prompt, onPick, busy }: PickerRowProps) {
  const { t } = useTranslation('conversations')
  const [showVersions, setShowVersions] = useState(false)
  const versionsId = useId()
  return (
    <li className="rounded-lg border p-3" aria-label={prompt.title}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <p className="flex items-center gap-2 font-medium">
            <span className="truncate">{prompt.title}</span>
            {prompt.currentVersionNumber !== null && (
              <Badge variant="outline">
                {t('messages.version', { number: prompt.currentVersionNumber })}
              </Badge>
            )}
          </p>
          {prompt.description && (
            <p className="line-clamp-2 text-sm text-muted-foreground">{prompt.description}</p>
          )}
        </div>
        <div className="flex flex-wrap gap-2 sm:shrink-0">
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={showVersions}
            aria-controls={versionsId}
            onClick={() => setShowVersions((shown) => !shown)}
          >
            {showVersions ? <ChevronUp aria-hidden /> : <ChevronDown aria-hidden />}
            {showVersions ? t('picker.hideVersions') : t('picker.showVersions')}
          </Button>
          <Button
            size="sm"
            disabled={busy}
            onClick={() =>
              onPick({ promptId: prompt.id, promptVersionId: null, title: prompt.title, versionNumber: null })
            }
          >
            {t('picker.attachLatest')}
          </Button>
        </div>
      </div>
      {showVersions && (
        <div id={versionsId} className="mt-3 border-t pt-3">
          <VersionList prompt={prompt} onPick={onPick} busy={busy} />
        </div>
      )}
    </li>
  )
}

function VersionList({ prompt, onPick, busy }: PickerRowProps) {
  const { t } = useTranslation('conversations')
  const versions = usePromptVersions(prompt.id)
  if (versions.isPending) return <Spinner label={t('picker.versionsLoading')} />
  if (versions.isError) {
    return <RetryAlert title={t('picker.versionsError')} onRetry={() => void versions.refetch()} />
  }
  const items = versions.data.pages.flatMap((page) => page.items)
  if (items.length === 0) return <p className="text-sm text-muted-foreground">{t('picker.noVersions')}</p>
  return (
    <>
      <ul className="space-y-1.5" aria-label={t('picker.versionsOf', { title: prompt.title })}>
        {items.map((version) => (
          <li key={version.id} className="flex items-center gap-2 text-sm">
            <span className="font-medium">{t('picker.version', { number: version.versionNumber })}</span>
            {version.id === prompt.currentVersionId && <Badge variant="primary">{t('picker.current')}</Badge>}
            <span className="min-w-0 flex-1 truncate text-muted-foreground">
              {version.changelog ?? formatShortDate(version.createdAt, currentLanguage())}
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={busy}
              aria-label={t('picker.attachVersionLabel', {
                number: version.versionNumber,
                title: prompt.title,
              })}
              onClick={() =>
                onPick({
                  promptId: prompt.id,
                  promptVersionId: version.id,
                  title: prompt.title,
                  versionNumber: version.versionNumber,
                })
              }
            >
              {t('picker.attachVersion')}
            </Button>
          </li>
        ))}
      </ul>
      {versions.hasNextPage && (
        <Button
          variant="outline"
          size="sm"
          className="mt-2"
          disabled={versions.isFetchingNextPage}
          onClick={() => void versions.fetchNextPage()}
        >
          {versions.isFetchingNextPage ? (
            <Spinner label={t('picker.versionsLoading')} />
          ) : (
            t('picker.loadMore')
          )}
        </Button>
      )}
    </>
  )
}
