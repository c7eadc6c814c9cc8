import { type InfiniteData, type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import type {
  AddAttachmentInput,
  AppendMessageInput,
  Message,
  MessageAttachment,
  UpdateMessageInput,
} from '../../../domain/conversations.ts'
import type { Page } from '../../../domain/cursor.ts'
import { callOperation } from '../../lib/api.ts'
import { invalidateOperations } from '../../lib/queries.ts'
import { invalidateConversationLists } from './conversation-queries.ts'
import { conversationQuery, messagesQuery } from './conversation-reads.ts'

type MessagePages = InfiniteData<Page<Message>, string | undefined>

/** The loaded messages, oldest first. */
export function messagesOldestFirst(data: InfiniteData<Page<Message>, unknown> | undefined): Message[] {
  return (data?.pages ?? []).flatMap((page) => page.items).reverse()
}

function updatePages(
  queryClient: QueryClient,
  conversationId: string,
  change: (items: Message[], pageIndex: number) => Message[],
) {
  queryClient.setQueryData<MessagePages>(messagesQuery(conversationId).queryKey, (data) =>
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
  void queryClient.invalidateQueries({ queryKey: conversationQuery(conversationId).queryKey })
  invalidateConversationLists(queryClient)
}

/** A message the server added (sent, or a generated reply) goes to the end of the loaded list. */
export function messageAdded(queryClient: QueryClient, message: Message) {
  // The newest page comes first: the new message goes to its front. Older pages keep their cursors.
  updatePages(queryClient, message.conversationId, (items, index) =>
    index === 0 ? [message, ...items] : items,
  )
  refreshConversation(queryClient, message.conversationId)
}

export function useAppendMessage(conversationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: AppendMessageInput) =>
      callOperation(conversationOperations.appendMessage, { params: { id: conversationId }, body }),
    onSuccess: (message) => messageAdded(queryClient, message),
  })
}

export function useEditMessage(conversationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateMessageInput }) =>
      callOperation(conversationOperations.updateMessage, { params: { id }, body: input }),
    onSuccess: (message) => {
      updateMessage(queryClient, conversationId, message.id, () => message)
      refreshConversation(queryClient, conversationId)
    },
  })
}

export function useDeleteMessage(conversationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => callOperation(conversationOperations.deleteMessage, { params: { id } }),
    onSuccess: (_, id) => {
      updatePages(queryClient, conversationId, (items) => items.filter((message) => message.id !== id))
      refreshConversation(queryClient, conversationId)
    },
  })
}

export function useAddAttachment(conversationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ messageId, input }: { messageId: string; input: AddAttachmentInput }) =>
      callOperation(conversationOperations.attach, { params: { id: messageId }, body: input }),
    onSuccess: (attachment) => {
      updateMessage(queryClient, conversationId, attachment.messageId, (message) => ({
        ...message,
        attachments: [...message.attachments, attachment],
      }))
      invalidateOperations(queryClient, conversationOperations.promptUsage)
    },
  })
}

/** Removal shows at once and comes back if the server refuses. */
export function useRemoveAttachment(conversationId: string) {
  const queryClient = useQueryClient()
  const key = messagesQuery(conversationId).queryKey
  return useMutation({
    mutationFn: ({ attachment }: { attachment: MessageAttachment }) =>
      callOperation(conversationOperations.detach, {
        params: { id: attachment.messageId, attachmentId: attachment.id },
      }),
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
    onSuccess: () => invalidateOperations(queryClient, conversationOperations.promptUsage),
  })
}
