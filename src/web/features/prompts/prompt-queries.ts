import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { PROMPT_VERSION_CACHE_MS } from '../../../domain/constants.ts'
import type { CreatePromptInput, PromptDetail, UpdatePromptInput } from '../../../domain/prompts.ts'
import { api } from '../../lib/api.ts'
import { promptKeys } from './list-queries.ts'

export function promptDetailQuery(id: string) {
  return queryOptions({
    queryKey: promptKeys.detail(id),
    queryFn: ({ signal }) => api.get<PromptDetail>(`/api/v1/prompts/${encodeURIComponent(id)}`, { signal }),
    // Versions never change once written (§9 caches version lookups for 60 s).
    staleTime: PROMPT_VERSION_CACHE_MS,
  })
}

/** The prompt with its versions and whether the user may edit it. */
export function usePrompt(id: string) {
  return useQuery(promptDetailQuery(id))
}

/** After a write: the detail answer goes straight into the cache; lists and tags refetch. */
function useStoreDetail() {
  const queryClient = useQueryClient()
  return (detail: PromptDetail) => {
    queryClient.setQueryData(promptKeys.detail(detail.prompt.id), detail)
    void queryClient.invalidateQueries({
      queryKey: promptKeys.all,
      predicate: (query) => query.queryKey[1] !== 'detail',
    })
  }
}

export function useCreatePrompt() {
  const store = useStoreDetail()
  return useMutation({
    mutationFn: (input: CreatePromptInput) => api.post<PromptDetail>('/api/v1/prompts', input),
    onSuccess: store,
  })
}

export function useSavePrompt(id: string) {
  const store = useStoreDetail()
  return useMutation({
    mutationFn: (input: UpdatePromptInput) => api.patch<PromptDetail>(`/api/v1/prompts/${id}`, input),
    onSuccess: store,
  })
}

export function useSetCurrentVersion(id: string) {
  const store = useStoreDetail()
  return useMutation({
    mutationFn: (versionId: string) =>
      api.put<PromptDetail>(`/api/v1/prompts/${id}/current-version`, { versionId }),
    onSuccess: store,
  })
}

export function useDeletePrompt() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`/api/v1/prompts/${id}`),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: promptKeys.detail(id) })
      void queryClient.invalidateQueries({ queryKey: promptKeys.all })
    },
  })
}
