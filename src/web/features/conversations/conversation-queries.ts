import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { CONVERSATIONS_PAGE } from '../../../domain/constants.ts'
import type {
  Conversation,
  ConversationScope,
  ConversationSummary,
  CreateConversationInput,
  UpdateConversationInput,
} from '../../../domain/conversations.ts'
import type { Page } from '../../../domain/cursor.ts'
import { api } from '../../lib/api.ts'
import { invalidatePromptUsage } from './usage-queries.ts'

/** The conversations API (§7 conversations): query keys, fetchers and hooks. */
export const conversationKeys = {
  all: ['conversations'] as const,
  lists: () => [...conversationKeys.all, 'list'] as const,
  list: (filters: ConversationFilters) => [...conversationKeys.lists(), filters] as const,
  detail: (id: string) => [...conversationKeys.all, 'detail', id] as const,
}

export interface ConversationFilters {
  scope: ConversationScope
  teamId?: string
  search: string
  tags: string[]
}

/** The list screen's pages: 50 at a time, then more by cursor (§9). */
export function conversationListQuery(filters: ConversationFilters) {
  return infiniteQueryOptions({
    queryKey: conversationKeys.list(filters),
    queryFn: ({ pageParam, signal }) =>
      api.get<Page<ConversationSummary>>('/api/v1/conversations', {
        signal,
        query: {
          scope: filters.scope,
          teamId: filters.teamId,
          search: filters.search,
          tags: filters.tags,
          limit: CONVERSATIONS_PAGE.listScreen,
          cursor: pageParam,
        },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
}

export function conversationQuery(id: string) {
  return queryOptions({
    queryKey: conversationKeys.detail(id),
    queryFn: async ({ signal }) =>
      (await api.get<{ conversation: Conversation }>(`/api/v1/conversations/${id}`, { signal })).conversation,
  })
}

export function useCreateConversation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: CreateConversationInput) =>
      (await api.post<{ conversation: Conversation }>('/api/v1/conversations', input)).conversation,
    onSuccess: (conversation) => {
      queryClient.setQueryData(conversationKeys.detail(conversation.id), conversation)
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() })
    },
  })
}

export function useUpdateConversation(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: UpdateConversationInput) =>
      (await api.patch<{ conversation: Conversation }>(`/api/v1/conversations/${id}`, input)).conversation,
    onSuccess: (conversation) => {
      queryClient.setQueryData(conversationKeys.detail(id), conversation)
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() })
      invalidatePromptUsage(queryClient)
    },
  })
}

export function useDeleteConversation(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.delete(`/api/v1/conversations/${id}`),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: conversationKeys.detail(id) })
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() })
      invalidatePromptUsage(queryClient)
    },
  })
}
