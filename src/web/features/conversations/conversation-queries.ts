import { useMutation, useQueryClient } from '@tanstack/react-query'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import { CONVERSATIONS_PAGE } from '../../../domain/constants.ts'
import type { CreateConversationInput, UpdateConversationInput } from '../../../domain/conversations.ts'
import { callOperation } from '../../lib/api.ts'
import type { ListFilters } from '../../lib/list-filters.ts'
import { invalidateOperations, operationQuery, pagedOperationQuery } from '../../lib/queries.ts'
import { conversationQuery } from './conversation-reads.ts'

/** The list screen's pages: 50 at a time, then more by cursor. */
export function conversationListQuery(filters: ListFilters) {
  return pagedOperationQuery(conversationOperations.list, {
    query: { ...filters, limit: CONVERSATIONS_PAGE.listScreen },
  })
}

/**
 * After a change to a conversation or its messages: the lists it appears in, and every prompt's
 * usage (attachments, titles and deletions change where a prompt is used).
 */
export function invalidateConversationLists(queryClient: ReturnType<typeof useQueryClient>) {
  invalidateOperations(queryClient, conversationOperations.list, conversationOperations.promptUsage)
}

export function useCreateConversation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateConversationInput) => callOperation(conversationOperations.create, { body }),
    onSuccess: (conversation) => {
      queryClient.setQueryData(conversationQuery(conversation.id).queryKey, conversation)
      invalidateOperations(queryClient, conversationOperations.list)
    },
  })
}

export function useUpdateConversation(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateConversationInput) =>
      callOperation(conversationOperations.update, { params: { id }, body }),
    onSuccess: (conversation) => {
      queryClient.setQueryData(conversationQuery(id).queryKey, conversation)
      invalidateConversationLists(queryClient)
    },
  })
}

export function useDeleteConversation(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => callOperation(conversationOperations.delete, { params: { id } }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: conversationQuery(id).queryKey })
      invalidateConversationLists(queryClient)
    },
  })
}

/** Where each version of a prompt is attached (the prompt detail's usage panel). */
export function promptUsageQuery(promptId: string) {
  return operationQuery(conversationOperations.promptUsage, { params: { id: promptId } })
}
