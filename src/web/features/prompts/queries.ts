import {
  keepPreviousData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { planOperations } from '../../../domain/api/plans.ts'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { PROMPT_VERSION_CACHE_MS } from '../../../domain/constants.ts'
import type {
  CreatePromptInput,
  PromptDetail,
  PromptScope,
  UpdatePromptInput,
} from '../../../domain/prompts.ts'
import { callOperation } from '../../lib/api.ts'
import type { ListFilters } from '../../lib/list-filters.ts'
import { invalidateOperations, operationKey, operationQuery, pagedOperationQuery } from '../../lib/queries.ts'
import { promptQuery, promptVersionsQuery } from './prompt-reads.ts'

/** One page of 20 at a time ('Load more' asks for the next); the previous result stays while typing. */
export function usePromptList(filters: ListFilters) {
  return useInfiniteQuery({
    ...pagedOperationQuery(promptOperations.list, { query: filters }),
    placeholderData: keepPreviousData,
  })
}

/** Starts loading the list's first page before its screen renders (the router calls it). */
export function prefetchPromptList(queryClient: QueryClient, filters: ListFilters) {
  void queryClient.prefetchInfiniteQuery(pagedOperationQuery(promptOperations.list, { query: filters }))
}

/** The distinct tags of the scope, for the tag filter. */
export function usePromptTags(scope: PromptScope, teamId?: string) {
  return useQuery({
    ...operationQuery(promptOperations.tags, { query: { scope, teamId } }),
    select: (page) => page.items,
  })
}

export function usePrompt(id: string) {
  return useQuery(promptQuery(id))
}

/** Reads the prompt and its history again (an editor catching up with a save made elsewhere). */
export function useRefreshPrompt(id: string) {
  const queryClient = useQueryClient()
  return async () => {
    void queryClient.invalidateQueries({
      queryKey: operationKey(promptOperations.versions, { params: { id } }),
    })
    return queryClient.fetchQuery({ ...promptQuery(id), staleTime: 0 })
  }
}

export function usePromptVersions(id: string, enabled = true) {
  return useInfiniteQuery({ ...promptVersionsQuery(id), enabled })
}

/** One version with its whole body. Versions never change once written, so it is fetched once. */
export function promptVersionQuery(id: string, versionId: string) {
  return { ...operationQuery(promptOperations.version, { params: { id, versionId } }), staleTime: Infinity }
}

/** One version with its whole body, when `versionId` is given (fetched once: versions never change). */
export function usePromptVersion(id: string, versionId: string | null) {
  return useQuery({ ...promptVersionQuery(id, versionId ?? ''), enabled: versionId !== null })
}

/** A version's body with its references resolved (what "Try it" compiles); versions never change. */
export function resolvedVersionQuery(id: string, versionId: string) {
  return {
    ...operationQuery(promptOperations.resolvedVersion, { params: { id, versionId } }),
    // What a reference names may move (a label), so this is read again like the versions list.
    staleTime: PROMPT_VERSION_CACHE_MS,
  }
}

/** A function fetching a version's body (from the cache when it was read before). */
/** Fetches one version of the prompt (body and config), from the cache when it is there. */
export function useVersion(id: string) {
  const queryClient = useQueryClient()
  return (versionId: string) => queryClient.fetchQuery(promptVersionQuery(id, versionId))
}

/**
 * After a write: the answer becomes the prompt's cached detail; every other prompt query (lists,
 * tags, the history) is refetched, and so are the labels and their history, which a save or
 * "Set as Current" moves (production, latest).
 */
function useStoreDetail() {
  const queryClient = useQueryClient()
  return (detail: PromptDetail) => {
    queryClient.setQueryData(operationKey(promptOperations.get, { params: { id: detail.id } }), detail)
    void queryClient.invalidateQueries({
      queryKey: [promptOperations.$group.name],
      predicate: (query) => query.queryKey[1] !== promptOperations.get.name,
    })
    invalidateOperations(queryClient, promptLabelOperations)
    // The plan's usage counts prompts.
    invalidateOperations(queryClient, planOperations.entitlements)
  }
}

export function useCreatePrompt() {
  const store = useStoreDetail()
  return useMutation({
    mutationFn: (body: CreatePromptInput) => callOperation(promptOperations.create, { body }),
    onSuccess: store,
  })
}

export function useSavePrompt(id: string) {
  const store = useStoreDetail()
  return useMutation({
    mutationFn: (body: UpdatePromptInput) => callOperation(promptOperations.update, { params: { id }, body }),
    onSuccess: store,
  })
}

export function useSetCurrentVersion(id: string) {
  const store = useStoreDetail()
  return useMutation({
    mutationFn: (versionId: string) =>
      callOperation(promptOperations.setCurrentVersion, { params: { id }, body: { versionId } }),
    onSuccess: store,
  })
}

export function useDeletePrompt() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => callOperation(promptOperations.delete, { params: { id } }),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: operationKey(promptOperations.get, { params: { id } }) })
      void queryClient.invalidateQueries({ queryKey: [promptOperations.$group.name] })
      invalidateOperations(queryClient, planOperations.entitlements)
    },
  })
}
