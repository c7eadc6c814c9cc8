import { FileText, Plus } from 'lucide-react'
import { ToggleGroup } from 'radix-ui'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PROMPT_LIMITS, type PromptScope } from '../../../domain/prompts.ts'
import { EmptyState } from '../../components/empty-state.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { SearchInput } from '../../components/search-input.tsx'
import { Alert, RetryAlert } from '../../components/ui/alert.tsx'
import { RemovableBadge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card } from '../../components/ui/card.tsx'
import { Checkbox } from '../../components/ui/checkbox.tsx'
import { Select } from '../../components/ui/input.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { MilestoneBanner, useDashboard, WeeklyStrip } from '../../features/dashboard/index.ts'
import { PlanBanner, useEntitlements, usePaywall } from '../../features/plans/index.ts'
import { PromptRow, PromptTransferButton, TagFilter, usePromptList } from '../../features/prompts/index.ts'
import { TeamOptions, useMyTeams } from '../../features/teams/index.ts'
import { errorText } from '../../lib/api.ts'
import { type ListFilters, useListFilters } from '../../lib/list-filters.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useOnVisible } from '../../lib/use-visible.ts'

function ScopeToggle({ value, onChange }: { value: PromptScope; onChange: (scope: PromptScope) => void }) {
  const { t } = useTranslation('prompts')
  const item =
    'cursor-pointer rounded-md px-3 py-1 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground data-[state=on]:bg-card data-[state=on]:text-foreground data-[state=on]:shadow-xs'
  return (
    <ToggleGroup.Root
      type="single"
      value={value}
      onValueChange={(next) => next && onChange(next as PromptScope)}
      aria-label={t('list.scopeLabel')}
      className="inline-flex items-center gap-1 rounded-lg bg-muted p-1"
    >
      <ToggleGroup.Item value="owner" className={item}>
        {t('list.scopeOwner')}
      </ToggleGroup.Item>
      <ToggleGroup.Item value="team" className={item}>
        {t('list.scopeTeam')}
      </ToggleGroup.Item>
    </ToggleGroup.Root>
  )
}

function ActiveFilters({
  filters,
  teamName,
  update,
}: {
  filters: ListFilters
  teamName?: string
  update: (patch: Partial<ListFilters>) => void
}) {
  const { t } = useTranslation('prompts')
  if (!filters.search && filters.tags.length === 0 && !filters.teamId && !filters.folder) return null
  const chip = (key: string, label: string, onRemove: () => void) => (
    <li key={key} className="max-w-full">
      <RemovableBadge removeLabel={t('list.removeFilter', { name: label })} onRemove={onRemove}>
        {label}
      </RemovableBadge>
    </li>
  )
  return (
    <section aria-label={t('list.activeFilters')} className="flex flex-wrap items-center gap-2">
      <span className="text-xs font-medium text-muted-foreground">{t('list.activeFilters')}:</span>
      <ul className="flex flex-wrap gap-1.5">
        {filters.teamId && chip('team', teamName ?? filters.teamId, () => update({ teamId: undefined }))}
        {filters.folder &&
          chip('folder', t('list.folderChip', { folder: filters.folder }), () =>
            update({ folder: undefined }),
          )}
        {filters.search &&
          chip('search', t('list.searchChip', { search: filters.search }), () =>
            update({ search: undefined }),
          )}
        {filters.tags.map((tag) =>
          chip(`tag-${tag}`, tag, () => update({ tags: filters.tags.filter((o) => o !== tag) })),
        )}
      </ul>
      <Button
        variant="link"
        size="sm"
        onClick={() => update({ search: undefined, tags: [], teamId: undefined, folder: undefined })}
      >
        {t('list.clearFilters')}
      </Button>
    </section>
  )
}

function NoPrompts({ scope, filtered }: { scope: PromptScope; filtered: boolean }) {
  const { t } = useTranslation('prompts')
  return (
    <EmptyState
      icon={FileText}
      title={filtered ? t('list.noMatchesTitle') : t('list.emptyTitle')}
      text={
        filtered ? t('list.noMatchesText') : scope === 'team' ? t('list.emptyTeam') : t('list.emptyOwner')
      }
      actions={<NewPromptLink>{t('list.createPrompt')}</NewPromptLink>}
    />
  )
}

/**
 * 'New Prompt' goes to /prompts/new; when the personal space may not create another prompt (the
 * limit, or the trial ended) the paywall opens instead.
 */
function NewPromptLink({ children }: { children: string }) {
  const entitlements = useEntitlements()
  const paywall = usePaywall()
  return (
    <>
      <Button asChild>
        <Link
          to="/prompts/new"
          onClick={(event) => {
            if (!paywall.allows(entitlements.data, 'createPrompt')) event.preventDefault()
          }}
        >
          <Plus aria-hidden />
          {children}
        </Link>
      </Button>
      {paywall.dialog}
    </>
  )
}

/**
 * Team scope: the team's milestone banner and its weekly activity strip, for the chosen team
 * or else the user's first team. Failing to load them leaves the list as it is.
 */
function TeamActivity({ teamId }: { teamId: string }) {
  const board = useDashboard(teamId)
  if (!board.data) return null
  return (
    <div className="mb-4 space-y-3">
      <MilestoneBanner key={teamId} teamId={teamId} milestones={board.data.milestones} />
      <Card className="p-4">
        <WeeklyStrip weekly={board.data.weekly} />
      </Card>
    </div>
  )
}

/**
 * The plan banner of the space the list shows: the personal one, or in team scope the chosen team's
 * (each of the user's teams when none is chosen); never the personal limit over a team's prompts.
 */
function ScopePlanBanners({
  filters,
  teams,
}: {
  filters: ListFilters
  teams: readonly { id: string; name: string }[] | undefined
}) {
  if (filters.scope !== 'team') return <PlanBanner />
  const shown = (teams ?? []).filter((team) => !filters.teamId || team.id === filters.teamId)
  return shown.map((team) => <PlanBanner key={team.id} teamId={team.id} teamName={team.name} />)
}

export function PromptListPage() {
  const { t } = useTranslation('prompts')
  useDocumentTitle(t('list.title'))
  const { filters, update, filtered } = useListFilters({ folders: true })
  const teams = useMyTeams()
  const teamNames = new Map((teams.data ?? []).map((team) => [team.id, team.name]))
  const list = usePromptList(filters)
  const items = list.data?.pages.flatMap((page) => page.items) ?? []
  const activityTeamId = filters.teamId ?? teams.data?.[0]?.id
  // The next page loads as the user scrolls near the end; "Load more" stays for keyboard users.
  const nextPageSentinel = useOnVisible<HTMLDivElement>(() => void list.fetchNextPage(), {
    enabled: list.hasNextPage && !list.isFetchingNextPage && !list.isFetchNextPageError,
  })

  return (
    <>
      <PageHeader
        title={t('list.title')}
        description={t('list.subtitle')}
        actions={
          <div className="flex flex-wrap gap-2">
            <PromptTransferButton />
            <NewPromptLink>{t('list.newPrompt')}</NewPromptLink>
          </div>
        }
      />
      <ScopePlanBanners filters={filters} teams={teams.data} />
      <div className="mb-4 space-y-3">
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
          <SearchInput
            value={filters.search ?? ''}
            onSearch={(search) => update({ search: search || undefined })}
            placeholder={t('list.searchPlaceholder')}
            label={t('list.searchLabel')}
            maxLength={PROMPT_LIMITS.search}
            className="min-w-0 flex-1 sm:max-w-sm"
          />
          {filters.search && (
            <div className="flex items-center gap-2">
              <Checkbox
                id="search-older-versions"
                checked={filters.versions === 'all'}
                onCheckedChange={(checked) => update({ versions: checked === true ? 'all' : undefined })}
              />
              <label htmlFor="search-older-versions" className="text-sm">
                {t('list.searchOlderVersions')}
              </label>
            </div>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <ScopeToggle value={filters.scope} onChange={(scope) => update({ scope, teamId: undefined })} />
            {filters.scope === 'team' && (teams.data?.length ?? 0) > 1 && (
              <div className="w-44">
                <Select
                  aria-label={t('list.teamLabel')}
                  value={filters.teamId ?? ''}
                  onChange={(event) => update({ teamId: event.target.value || undefined })}
                >
                  <TeamOptions teams={teams.data ?? []} noneLabel={t('list.allTeams')} />
                </Select>
              </div>
            )}
            <TagFilter
              scope={filters.scope}
              teamId={filters.teamId}
              selected={filters.tags}
              onChange={(tags) => update({ tags })}
            />
          </div>
        </div>
        <ActiveFilters
          filters={filters}
          teamName={filters.teamId ? teamNames.get(filters.teamId) : undefined}
          update={update}
        />
      </div>

      {filters.scope === 'team' && activityTeamId && <TeamActivity teamId={activityTeamId} />}

      {list.isPending ? (
        <LoadingSkeletons label={t('list.loading')} className="space-y-3">
          {[0, 1, 2, 3].map((key) => (
            <Skeleton key={key} className="h-28 w-full rounded-xl" />
          ))}
        </LoadingSkeletons>
      ) : list.isError && items.length === 0 ? (
        <RetryAlert title={t('list.loadFailed')} onRetry={() => list.refetch()}>
          {errorText(list.error, t('list.loadFailed'))}
        </RetryAlert>
      ) : items.length === 0 ? (
        <NoPrompts scope={filters.scope} filtered={filtered} />
      ) : (
        <div className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
          <ul className="space-y-3" aria-label={t('list.title')}>
            {items.map((prompt) => (
              <li key={prompt.id} className="list-row">
                <PromptRow
                  prompt={prompt}
                  canEdit={prompt.access.edit}
                  showOwner={filters.scope === 'team'}
                  teamName={prompt.teamId ? teamNames.get(prompt.teamId) : undefined}
                  onFolder={(folder) => update({ folder })}
                />
              </li>
            ))}
          </ul>
          {list.isFetchNextPageError && (
            <Alert tone="error" className="mt-4">
              {errorText(list.error, t('list.loadFailed'))}
            </Alert>
          )}
          {list.hasNextPage && (
            <div ref={nextPageSentinel} className="mt-4 flex justify-center">
              <Button
                variant="outline"
                onClick={() => list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
              >
                {list.isFetchingNextPage ? t('list.loadingMore') : t('list.loadMore')}
              </Button>
            </div>
          )}
        </div>
      )}
    </>
  )
}
