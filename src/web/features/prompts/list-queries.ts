import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query'
import type { PromptPage, PromptScope } from '../../../domain/prompts.ts'
import { api } from '../../lib/api.ts'

/** Every prompt query starts with this key, so one invalidation refreshes lists, tags and details. */
export const promptKeys = {
  all: ['prompts'] as const,
  lists: () => [...promptKeys.all, 'list'] as const,
  tags: (scope: PromptScope, teamId?: string) => [...promptKeys.all, 'tags', scope, teamId ?? null] as const,
  detail: (id: string) => [...promptKeys.all, 'detail', id] as const,
}

export interface PromptListFilters {
  scope: PromptScope
  teamId?: string
  search?: string
  tags: string[]
}

export function promptListQuery(filters: PromptListFilters) {
  return infiniteQueryOptions({
    queryKey: [...promptKeys.lists(), filters] as const,
    queryFn: ({ pageParam, signal }) =>
      api.get<PromptPage>('/api/v1/prompts', {
        query: {
          scope: filters.scope,
          teamId: filters.teamId,
          search: filters.search,
          tags: filters.tags,
          cursor: pageParam,
        },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })
}

/** One page of 20 at a time ('Load more' asks for the next); the previous result stays while typing. */
export function usePromptList(filters: PromptListFilters) {
  return useInfiniteQuery({ ...promptListQuery(filters), placeholderData: keepPreviousData })
}

export function promptTagsQuery(scope: PromptScope, teamId?: string) {
  return queryOptions({
    queryKey: promptKeys.tags(scope, teamId),
    queryFn: async ({ signal }) =>
      (await api.get<{ items: string[] }>('/api/v1/prompts/tags', { query: { scope, teamId }, signal }))
        .items,
  })
}

/** The distinct tags of the scope, for the tag filter. */
export function usePromptTags(scope: PromptScope, teamId?: string) {
  return useQuery(promptTagsQuery(scope, teamId))
}
