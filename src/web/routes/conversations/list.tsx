import { useInfiniteQuery } from '@tanstack/react-query'
import { MessagesSquare, Plus } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SEARCH_MAX } from '../../../domain/fields.ts'
import { EmptyState } from '../../components/empty-state.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { SearchInput } from '../../components/search-input.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { RemovableBadge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Select } from '../../components/ui/input.tsx'
import { LoadingSkeletons, Spinner } from '../../components/ui/skeleton.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import {
  ConversationCard,
  ConversationCardsSkeleton,
  conversationListQuery,
  NewConversationDialog,
} from '../../features/conversations/index.ts'
import { TeamOptions, useMyTeams } from '../../features/teams/index.ts'
import { useListFilters } from '../../lib/list-filters.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useOnVisible } from '../../lib/use-visible.ts'

/**
 * Conversations list. Tab (scope), team, search and tags live in the URL (see useListFilters),
 * so a filtered list can be shared, reloaded and reached again with the back button.
 */
export function ConversationsPage() {
  const { t } = useTranslation('conversations')
  useDocumentTitle(t('list.title'))
  const teams = useMyTeams().data ?? []
  const hasTeams = teams.length > 0
  const { filters, update, filtered } = useListFilters({ teamScope: hasTeams })
  const { scope, tags } = filters
  // Only one of the user's teams narrows the list; an unknown id in the URL means all of them.
  const teamId = teams.find((team) => team.id === filters.teamId)?.id
  const [creating, setCreating] = useState(false)

  const addTag = (tag: string) => {
    if (!tags.includes(tag)) update({ tags: [...tags, tag] })
  }
  const removeTag = (tag: string) => update({ tags: tags.filter((kept) => kept !== tag) })
  const clearFilters = () => update({ tags: [], search: undefined })

  const list = useInfiniteQuery(conversationListQuery({ ...filters, teamId }))
  const items = list.data?.pages.flatMap((page) => page.items) ?? []
  const sentinel = useOnVisible<HTMLDivElement>(() => void list.fetchNextPage(), {
    enabled: list.hasNextPage && !list.isFetchingNextPage && !list.isError,
  })
  const changeScope = (value: string) =>
    update({ scope: value === 'team' ? 'team' : 'owner', teamId: undefined })

  const results = list.isPending ? (
    <LoadingSkeletons label={t('list.loading')}>
      <ConversationCardsSkeleton />
    </LoadingSkeletons>
  ) : list.isError && items.length === 0 ? (
    <RetryAlert title={t('list.loadError')} onRetry={() => void list.refetch()} />
  ) : items.length === 0 ? (
    <EmptyState
      icon={MessagesSquare}
      title={
        filtered ? t('list.noMatchTitle') : scope === 'team' ? t('list.emptyTeamTitle') : t('list.emptyTitle')
      }
      text={
        filtered ? t('list.noMatchText') : scope === 'team' ? t('list.emptyTeamText') : t('list.emptyText')
      }
      actions={
        filtered ? (
          <Button variant="outline" onClick={clearFilters}>
            {t('list.clearFilters')}
          </Button>
        ) : (
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden />
            {t('list.new')}
          </Button>
        )
      }
    />
  ) : (
    <>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={t('list.title')}>
        {items.map((conversation) => (
          <li key={conversation.id} className="list-row flex">
            <ConversationCard conversation={conversation} onTagClick={addTag} />
          </li>
        ))}
      </ul>
      <div ref={sentinel} className="flex justify-center py-6">
        {list.isFetchingNextPage ? (
          <Spinner label={t('list.loadingMore')} />
        ) : list.isError ? (
          <RetryAlert title={t('list.loadError')} onRetry={() => void list.fetchNextPage()} />
        ) : list.hasNextPage ? (
          <Button variant="outline" onClick={() => void list.fetchNextPage()}>
            {t('list.loadMore')}
          </Button>
        ) : null}
      </div>
    </>
  )

  return (
    <>
      <PageHeader
        title={t('list.title')}
        description={t('list.subtitle')}
        actions={
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden />
            {t('list.new')}
          </Button>
        }
      />
      <NewConversationDialog open={creating} onOpenChange={setCreating} defaultTeamId={teamId} />

      {/* With teams, the list is the panel of the My / Team Conversations tabs. */}
      <Tabs value={scope} onValueChange={changeScope}>
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center">
          {hasTeams && (
            <TabsList aria-label={t('list.tabsLabel')}>
              <TabsTrigger value="owner">{t('list.mine')}</TabsTrigger>
              <TabsTrigger value="team">{t('list.team')}</TabsTrigger>
            </TabsList>
          )}
          {scope === 'team' && teams.length > 1 && (
            <Select
              aria-label={t('list.teamFilter')}
              className="sm:w-48"
              value={teamId ?? ''}
              onChange={(event) => update({ teamId: event.target.value || undefined })}
            >
              <TeamOptions teams={teams} noneLabel={t('list.allTeams')} />
            </Select>
          )}
          <SearchInput
            value={filters.search ?? ''}
            onSearch={(text) => update({ search: text || undefined })}
            placeholder={t('list.search')}
            maxLength={SEARCH_MAX}
            label={t('list.searchLabel')}
            className="flex-1"
          />
        </div>

        {tags.length > 0 && (
          <div className="mb-4 flex flex-wrap items-center gap-2">
            <span id="tag-filter-label" className="text-sm text-muted-foreground">
              {t('list.filteredByTag')}:
            </span>
            <ul aria-labelledby="tag-filter-label" className="flex flex-wrap gap-2">
              {tags.map((tag) => (
                <li key={tag} className="max-w-full">
                  <RemovableBadge removeLabel={t('list.removeTag', { tag })} onRemove={() => removeTag(tag)}>
                    #{tag}
                  </RemovableBadge>
                </li>
              ))}
            </ul>
            {tags.length > 1 && (
              <Button variant="link" size="sm" onClick={() => update({ tags: [] })}>
                {t('list.clearTags')}
              </Button>
            )}
          </div>
        )}

        {hasTeams ? <TabsContent value={scope}>{results}</TabsContent> : results}
      </Tabs>
    </>
  )
}
