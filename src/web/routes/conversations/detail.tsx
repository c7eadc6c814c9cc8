import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { MessageSquareDashed, SearchX } from 'lucide-react'
import { useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import type { Conversation } from '../../../domain/conversations.ts'
import { canChangeMessage } from '../../../domain/permissions.ts'
import { LoadFailedState } from '../../components/empty-state.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { LoadingSkeletons, Skeleton, Spinner } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { useCurrentUser } from '../../features/auth/index.ts'
import type { PickedPrompt } from '../../features/conversations/index.ts'
import {
  ConversationHeader,
  conversationQuery,
  MessageComposer,
  MessageItem,
  messagesOldestFirst,
  messagesQuery,
  PromptPickerDialog,
  ReplyGenerator,
  type ReplyState,
  StreamingReply,
  useAddAttachment,
  useGenerateReply,
} from '../../features/conversations/index.ts'
import { errorText } from '../../lib/api.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useOnVisible } from '../../lib/use-visible.ts'

// The page fills the space below the top bar (3.5rem) inside main's padding, so the message list
// scrolls on its own and the composer stays in view.
const pageHeight = 'h-[calc(100dvh-3.5rem-3rem)] lg:h-[calc(100dvh-3.5rem-4rem)]'

export function ConversationDetailPage() {
  const { t } = useTranslation('conversations')
  const { id = '' } = useParams()
  const conversation = useQuery(conversationQuery(id))
  useDocumentTitle(conversation.data?.title ?? t('detail.loading'))

  if (conversation.isPending) {
    return (
      <LoadingSkeletons label={t('detail.loading')} className="space-y-4">
        <Skeleton className="h-4 w-28" />
        <Skeleton className="h-8 w-2/3" />
        {['a', 'b', 'c'].map((key) => (
          <Skeleton key={key} className="h-20 w-full" />
        ))}
      </LoadingSkeletons>
    )
  }
  if (conversation.isError) {
    return (
      <LoadFailedState
        error={conversation.error}
        onRetry={() => void conversation.refetch()}
        icon={SearchX}
        notFoundTitle={t('detail.notFound')}
        notFoundText={t('detail.notFoundText')}
        failedTitle={t('detail.loadError')}
        back={{ to: '/conversations', label: t('detail.backToList') }}
        className="mx-auto mt-6 max-w-lg"
      />
    )
  }
  // Keyed: a reply streaming in one conversation ends when another opens.
  return <ConversationView key={conversation.data.id} conversation={conversation.data} />
}

type PickerTarget = { kind: 'composer' } | { kind: 'message'; messageId: string } | null

function ConversationView({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation('conversations')
  const user = useCurrentUser()
  const [picker, setPicker] = useState<PickerTarget>(null)
  const [pending, setPending] = useState<PickedPrompt[]>([])
  const addAttachment = useAddAttachment(conversation.id)
  const reply = useGenerateReply(conversation.id)

  const onPick = (picked: PickedPrompt) => {
    if (picker?.kind === 'message') {
      addAttachment.mutate(
        {
          messageId: picker.messageId,
          input: { promptId: picked.promptId, promptVersionId: picked.promptVersionId },
        },
        {
          onSuccess: () => {
            toast({ title: t('messages.attached'), tone: 'success' })
            setPicker(null)
          },
          onError: (error) =>
            toast({
              title: t('messages.attachFailed'),
              description: errorText(error, t('messages.attachFailed')),
              tone: 'error',
            }),
        },
      )
      return
    }
    const same = (p: PickedPrompt) =>
      p.promptId === picked.promptId && p.promptVersionId === picked.promptVersionId
    if (!pending.some(same)) setPending([...pending, picked])
    setPicker(null)
  }

  return (
    <div className={`flex flex-col ${pageHeight}`}>
      <ConversationHeader conversation={conversation} />
      <MessageList
        conversation={conversation}
        currentUserId={user.id}
        onAttach={(messageId) => setPicker({ kind: 'message', messageId })}
        reply={reply.state}
      />
      <div className="space-y-2 pt-3">
        <ReplyGenerator
          conversation={conversation}
          hasMessages={'messages' in conversation.content}
          reply={reply}
        />
        <MessageComposer
          conversationId={conversation.id}
          pending={pending}
          onPendingChange={setPending}
          onAttachClick={() => setPicker({ kind: 'composer' })}
        />
      </div>
      <PromptPickerDialog
        open={picker !== null}
        onOpenChange={(open) => !open && setPicker(null)}
        onPick={onPick}
        busy={addAttachment.isPending}
      />
    </div>
  )
}

/**
 * Messages oldest first, opened at the newest. Scrolling to the top loads older pages and keeps
 * the reader's place; a new newest message scrolls into view.
 */
function MessageList({
  conversation,
  currentUserId,
  onAttach,
  reply,
}: {
  conversation: Conversation
  currentUserId: string
  onAttach: (messageId: string) => void
  reply: ReplyState
}) {
  const { t } = useTranslation('conversations')
  const scrollRef = useRef<HTMLDivElement>(null)
  const messages = useInfiniteQuery(messagesQuery(conversation.id))
  const list = messagesOldestFirst(messages.data)
  const lastId = list.at(-1)?.id
  const streaming = reply.status === 'running' ? reply : null
  const pageCount = messages.data?.pages.length ?? 0
  // Distance from the bottom before older messages were put above, to restore the view after.
  const distanceFromBottom = useRef<number | null>(null)

  // The newest message, and a reply as it streams in, stay in view.
  const streamedLength = streaming?.text.length ?? 0
  useLayoutEffect(() => {
    const element = scrollRef.current
    if (element && (lastId || streamedLength > 0)) element.scrollTop = element.scrollHeight
  }, [lastId, streamedLength])

  useLayoutEffect(() => {
    const element = scrollRef.current
    if (element && distanceFromBottom.current !== null && pageCount > 0) {
      element.scrollTop = element.scrollHeight - distanceFromBottom.current
      distanceFromBottom.current = null
    }
  }, [pageCount])

  const loadOlder = () => {
    const element = scrollRef.current
    if (element) distanceFromBottom.current = element.scrollHeight - element.scrollTop
    void messages.fetchNextPage()
  }
  const sentinel = useOnVisible<HTMLDivElement>(loadOlder, {
    enabled: messages.hasNextPage && !messages.isFetchingNextPage && !messages.isError,
    root: scrollRef,
    margin: '100px',
  })

  return (
    <section
      ref={scrollRef}
      aria-label={t('messages.label')}
      tabIndex={-1}
      className="-mx-1 min-h-0 flex-1 overflow-y-auto border-y px-1 py-3 outline-none"
    >
      {messages.isPending ? (
        <LoadingSkeletons label={t('detail.loading')} className="space-y-3">
          {['a', 'b', 'c'].map((key) => (
            <Skeleton key={key} className="h-20 w-full" />
          ))}
        </LoadingSkeletons>
      ) : messages.isError && list.length === 0 ? (
        <Alert tone="error" title={t('messages.loadError')} />
      ) : list.length === 0 && !streaming ? (
        <div className="flex h-full flex-col items-center justify-center gap-2 text-center text-muted-foreground">
          <MessageSquareDashed aria-hidden className="size-8" />
          <p className="font-medium text-foreground">{t('messages.emptyTitle')}</p>
          <p className="text-sm">{t('messages.emptyText')}</p>
        </div>
      ) : (
        <>
          {messages.hasNextPage && (
            <div ref={sentinel} className="flex justify-center pb-3">
              {messages.isFetchingNextPage ? (
                <Spinner label={t('messages.loadingOlder')} />
              ) : (
                <Button variant="ghost" size="sm" onClick={loadOlder}>
                  {t('messages.loadOlder')}
                </Button>
              )}
            </div>
          )}
          {messages.isError && <Alert tone="error" title={t('messages.loadError')} className="mb-3" />}
          <ol className="space-y-3">
            {list.map((message) => (
              <li key={message.id} className="list-row">
                <MessageItem
                  message={message}
                  currentUserId={currentUserId}
                  canChange={canChangeMessage(conversation.access, currentUserId, message)}
                  onAttach={() => onAttach(message.id)}
                />
              </li>
            ))}
            {streaming && (
              <li className="list-row">
                <StreamingReply text={streaming.text} model={streaming.model} />
              </li>
            )}
          </ol>
        </>
      )}
    </section>
  )
}
