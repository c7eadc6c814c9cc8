import { Bot, MoreHorizontal, Paperclip, Pencil, Trash2, UserRound } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Message } from '../../../domain/conversations.ts'
import { formatLongDateTime } from '../../../domain/time.ts'
import { RelativeTime } from '../../components/relative-time.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { ConfirmDialog } from '../../components/ui/dialog.tsx'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu.tsx'
import { Textarea } from '../../components/ui/input.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { cn } from '../../lib/cn.ts'
import { AttachmentChip } from './attachment-chip.tsx'
import { useDeleteMessage, useEditMessage, useRemoveAttachment } from './message-queries.ts'

/**
 * One message: who wrote it, model badge, time, token count, its attached prompts and, for
 * those who may change it, a menu with Attach prompt, Edit and Delete.
 */
export function MessageItem({
  message,
  currentUserId,
  canChange,
  onAttach,
}: {
  message: Message
  currentUserId: string
  canChange: boolean
  onAttach: () => void
}) {
  const { t } = useTranslation('conversations')
  const [editing, setEditing] = useState(false)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const remove = useDeleteMessage(message.conversationId)
  const removeAttachment = useRemoveAttachment(message.conversationId)

  const author =
    message.role === 'assistant'
      ? t('messages.assistant')
      : message.role === 'system'
        ? t('messages.system')
        : message.createdByUserId === currentUserId
          ? t('messages.you')
          : // A message keeps no author only when its author deleted their account.
            message.createdByUserId === null
            ? t('messages.deletedUser')
            : (message.authorEmail ?? t('messages.member'))
  const edited = Date.parse(message.updatedAt) - Date.parse(message.createdAt) > 1000

  return (
    <article
      aria-label={author}
      className={cn(
        'group rounded-xl border p-3 sm:p-4',
        message.role === 'user' ? 'bg-card' : 'border-transparent bg-muted/60',
      )}
    >
      <header className="mb-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-1.5 text-sm font-semibold text-foreground">
          {message.role === 'user' ? (
            <UserRound aria-hidden className="size-4 text-primary" />
          ) : (
            <Bot aria-hidden className="size-4 text-primary" />
          )}
          <span className="max-w-[16rem] truncate">{author}</span>
        </span>
        {message.model && <Badge variant="outline">{message.model}</Badge>}
        <span title={formatLongDateTime(message.createdAt, currentLanguage())}>
          <RelativeTime value={message.createdAt} />
        </span>
        {message.tokenCount !== null && <span>{t('messages.tokens', { count: message.tokenCount })}</span>}
        {edited && <span>· {t('messages.edited')}</span>}
        {canChange && !editing && (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button
                variant="ghost"
                size="icon-sm"
                className="ml-auto -my-1"
                aria-label={t('messages.menu')}
              >
                <MoreHorizontal />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuItem onSelect={onAttach}>
                <Paperclip />
                {t('messages.attach')}
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setEditing(true)}>
                <Pencil />
                {t('messages.edit')}
              </DropdownMenuItem>
              <DropdownMenuItem destructive onSelect={() => setConfirmDelete(true)}>
                <Trash2 />
                {t('messages.delete')}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </header>

      {editing ? (
        <MessageEditor message={message} onDone={() => setEditing(false)} />
      ) : (
        <p className="text-sm leading-relaxed break-words whitespace-pre-wrap">{message.content.text}</p>
      )}

      {message.attachments.length > 0 && (
        <ul className="mt-2.5 flex flex-wrap gap-1.5">
          {message.attachments.map((attachment) => (
            <li key={attachment.id} className="max-w-full">
              <AttachmentChip
                promptId={attachment.promptId}
                title={attachment.title}
                versionNumber={attachment.versionNumber}
                onRemove={
                  canChange
                    ? () =>
                        removeAttachment.mutate(
                          { attachment },
                          {
                            onError: (error) =>
                              toast({
                                title: t('messages.removeAttachmentFailed'),
                                description: errorText(error, t('messages.removeAttachmentFailed')),
                                tone: 'error',
                              }),
                          },
                        )
                    : undefined
                }
              />
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t('messages.deleteTitle')}
        description={t('messages.deleteText')}
        confirmLabel={t('messages.delete')}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(message.id, {
            onSuccess: () => setConfirmDelete(false),
            onError: (error) =>
              toast({
                title: t('messages.deleteFailed'),
                description: errorText(error, t('messages.deleteFailed')),
                tone: 'error',
              }),
          })
        }
      />
    </article>
  )
}

/** Inline edit with Save / Cancel; unchanged text saves nothing. Escape cancels. */
function MessageEditor({ message, onDone }: { message: Message; onDone: () => void }) {
  const { t } = useTranslation('conversations')
  const [text, setText] = useState(message.content.text)
  const edit = useEditMessage(message.conversationId)
  const save = () => {
    const trimmed = text.trim()
    if (trimmed === message.content.text) return onDone()
    if (trimmed === '') return
    edit.mutate(
      { id: message.id, input: { content: { text: trimmed } } },
      {
        onSuccess: onDone,
        onError: (error) =>
          toast({
            title: t('messages.updateFailed'),
            description: errorText(error, t('messages.updateFailed')),
            tone: 'error',
          }),
      },
    )
  }
  return (
    <form
      className="space-y-2"
      onSubmit={(event) => {
        event.preventDefault()
        save()
      }}
    >
      <Textarea
        autoFocus
        aria-label={t('messages.editLabel')}
        value={text}
        rows={Math.min(10, Math.max(3, text.split('\n').length))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            onDone()
          }
        }}
      />
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onDone} disabled={edit.isPending}>
          {t('messages.cancel')}
        </Button>
        <Button type="submit" size="sm" disabled={edit.isPending || text.trim() === ''}>
          {edit.isPending ? t('messages.saving') : t('messages.save')}
        </Button>
      </div>
    </form>
  )
}
