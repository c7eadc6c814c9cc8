import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query'
import { PROMPT_VERSION_CACHE_MS } from '../../../domain/constants.ts'
import type { Page } from '../../../domain/cursor.ts'
import type { PromptSummary, PromptVersion } from '../../../domain/prompts.ts'
import { api } from '../../lib/api.ts'

/**
 * The prompt picker reads prompts through the prompts API (shapes in src/domain/prompts.ts): the
 * user's own or their teams' prompts by title, and a prompt's versions, newest first. Keys start
 * with 'prompts', so the prompts feature's invalidations refresh the picker too.
 */
export type PickerScope = 'owner' | 'team'

export function pickerPromptsQuery(scope: PickerScope, search: string) {
  return infiniteQueryOptions({
    queryKey: ['prompts', 'picker', { scope, search }],
    queryFn: ({ pageParam, signal }) =>
      api.get<Page<PromptSummary>>('/api/v1/prompts', {
        signal,
        query: { scope, search, cursor: pageParam },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? null,
    // The previous results stay while the next search loads, so open version lists stay open.
    placeholderData: keepPreviousData,
  })
}

export function promptVersionsQuery(promptId: string) {
  return queryOptions({
    queryKey: ['prompts', promptId, 'versions'],
    queryFn: async ({ signal }) =>
      (await api.get<{ items: PromptVersion[] }>(`/api/v1/prompts/${promptId}/versions`, { signal })).items,
    // §9: prompt version lookups are cached for 60 s.
    staleTime: PROMPT_VERSION_CACHE_MS,
  })
}

/** What the picker hands back: a prompt, and a version of it or none ('latest'). */
export interface PickedPrompt {
  promptId: string
  promptVersionId: string | null
  title: string
  versionNumber: number | null
}
