import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query'
import { MESSAGES_PAGE } from '../../../domain/constants.ts'
import type {
  AddAttachmentInput,
  AppendMessageInput,
  Message,
  MessageAttachment,
  UpdateMessageInput,
} from '../../../domain/conversations.ts'
import type { Page } from '../../../domain/cursor.ts'
import { api } from '../../lib/api.ts'
import { conversationKeys } from './conversation-queries.ts'
import { invalidatePromptUsage } from './usage-queries.ts'

/** Messages and their attachments (§7 conversation_messages, conversation_message_prompts). */
export const messageKeys = {
  list: (conversationId: string) => [...conversationKeys.all, 'messages', conversationId] as const,
}

type MessagePages = InfiniteData<Page<Message>, string | null>

/**
 * The detail screen opens at the newest messages: pages come newest first (order=desc, 100 each,
 * §9) and the screen shows them oldest first; scrolling up loads older pages.
 */
export function messagesQuery(conversationId: string) {
  return infiniteQueryOptions({
    queryKey: messageKeys.list(conversationId),
    queryFn: ({ pageParam, signal }) =>
      api.get<Page<Message>>(`/api/v1/conversations/${conversationId}/messages`, {
        signal,
        query: { order: 'desc', limit: MESSAGES_PAGE.screen, cursor: pageParam },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
}

/** The loaded messages, oldest first. */
export function messagesOldestFirst(data: InfiniteData<Page<Message>, unknown> | undefined): Message[] {
  return (data?.pages ?? []).flatMap((page) => page.items).reverse()
}

function updatePages(
  queryClient: QueryClient,
  conversationId: string,
  change: (items: Message[], pageIndex: number) => Message[],
) {
  queryClient.setQueryData<MessagePages>(messageKeys.list(conversationId), (data) =>
    data
      ? { ...data, pages: data.pages.map((page, index) => ({ ...page, items: change(page.items, index) })) }
      : data,
  )
}

function updateMessage(
  queryClient: QueryClient,
  conversationId: string,
  messageId: string,
  change: (message: Message) => Message,
) {
  updatePages(queryClient, conversationId, (items) =>
    items.map((message) => (message.id === messageId ? change(message) : message)),
  )
}

/** A message write changes the conversation too (snapshot, updated time, its place in lists). */
function refreshConversation(queryClient: QueryClient, conversationId: string) {
  void queryClient.invalidateQueries({ queryKey: conversationKeys.detail(conversationId) })
  void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() })
  invalidatePromptUsage(queryClient)
}

export function useAppendMessage(conversationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: AppendMessageInput) =>
      (await api.post<{ message: Message }>(`/api/v1/conversations/${conversationId}/messages`, input))
        .message,
    onSuccess: (message) => {
      // The newest page comes first: the new message goes to its front. Older pages keep their cursors.
      updatePages(queryClient, conversationId, (items, index) => (index === 0 ? [message, ...items] : items))
      refreshConversation(queryClient, conversationId)
    },
  })
}

export function useEditMessage(conversationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, input }: { id: string; input: UpdateMessageInput }) =>
      (await api.patch<{ message: Message }>(`/api/v1/messages/${id}`, input)).message,
    onSuccess: (message) => {
      updateMessage(queryClient, conversationId, message.id, () => message)
      refreshConversation(queryClient, conversationId)
    },
  })
}

export function useDeleteMessage(conversationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/v1/messages/${id}`),
    onSuccess: (_, id) => {
      updatePages(queryClient, conversationId, (items) => items.filter((message) => message.id !== id))
      refreshConversation(queryClient, conversationId)
    },
  })
}

export function useAddAttachment(conversationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ messageId, input }: { messageId: string; input: AddAttachmentInput }) =>
      (await api.post<{ attachment: MessageAttachment }>(`/api/v1/messages/${messageId}/attachments`, input))
        .attachment,
    onSuccess: (attachment) => {
      updateMessage(queryClient, conversationId, attachment.messageId, (message) => ({
        ...message,
        attachments: [...message.attachments, attachment],
      }))
      invalidatePromptUsage(queryClient)
    },
  })
}

/** Removal shows at once and comes back if the server refuses (§4). */
export function useRemoveAttachment(conversationId: string) {
  const queryClient = useQueryClient()
  const key = messageKeys.list(conversationId)
  return useMutation({
    mutationFn: ({ attachment }: { attachment: MessageAttachment }) =>
      api.delete(`/api/v1/messages/${attachment.messageId}/attachments/${attachment.id}`),
    onMutate: async ({ attachment }) => {
      await queryClient.cancelQueries({ queryKey: key })
      const previous = queryClient.getQueryData<MessagePages>(key)
      updateMessage(queryClient, conversationId, attachment.messageId, (message) => ({
        ...message,
        attachments: message.attachments.filter((a) => a.id !== attachment.id),
      }))
      return { previous }
    },
    onError: (_error, _variables, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous)
    },
    onSuccess: () => invalidatePromptUsage(queryClient),
  })
}
