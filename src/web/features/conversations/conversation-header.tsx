import { MoreHorizontal, Trash2, Users } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { z } from 'zod'
import {
  type Conversation,
  conversationTagsSchema,
  conversationTitleSchema,
  parseTagList,
} from '../../../domain/conversations.ts'
import { BackLink } from '../../components/page-header.tsx'
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
import { toast } from '../../components/ui/toast.tsx'
import { isMessageKey, message } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { useDeleteConversation, useUpdateConversation } from './conversation-queries.ts'
import { InlineEdit } from './inline-edit.tsx'

// On a phone a long title keeps to two lines, so the messages keep the screen.
const titleClass = 'text-xl font-semibold tracking-tight wrap-anywhere max-sm:line-clamp-2 sm:text-2xl'

function firstIssue(error: z.ZodError): string {
  const key = error.issues[0]?.message
  return message(isMessageKey(key) ? key : 'error.invalidValue')
}

/**
 * The detail screen's header: back link, click-to-edit title and tags, team, last update and
 * the menu with 'Delete conversation'. Editing is offered to those who may manage the conversation.
 */
export function ConversationHeader({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation('conversations')
  const navigate = useNavigate()
  const update = useUpdateConversation(conversation.id)
  const remove = useDeleteConversation(conversation.id)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const { canManage } = conversation.access

  const save = async (input: { title?: string; tags?: string[] }): Promise<string | null> => {
    try {
      await update.mutateAsync(input)
      return null
    } catch (error) {
      const text = errorText(error, t('detail.updateFailed'))
      toast({ title: t('detail.updateFailed'), description: text, tone: 'error' })
      return text
    }
  }
  const saveTitle = async (text: string) => {
    const parsed = conversationTitleSchema.safeParse(text)
    if (!parsed.success) return firstIssue(parsed.error)
    return parsed.data === conversation.title ? null : save({ title: parsed.data })
  }
  const saveTags = async (text: string) => {
    const parsed = conversationTagsSchema.safeParse(parseTagList(text))
    if (!parsed.success) return firstIssue(parsed.error)
    return parsed.data.join(',') === conversation.tags.join(',') ? null : save({ tags: parsed.data })
  }

  const tagList =
    conversation.tags.length > 0 ? (
      <span className="flex flex-wrap gap-1.5">
        {conversation.tags.map((tag) => (
          <Badge key={tag} variant="outline">
            #{tag}
          </Badge>
        ))}
      </span>
    ) : null

  return (
    <header className="space-y-2 pb-3">
      <BackLink to="/conversations">{t('detail.back')}</BackLink>
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          {canManage ? (
            <InlineEdit
              draft={conversation.title}
              label={t('detail.titleLabel')}
              editLabel={t('detail.editTitle')}
              inputClassName="h-10 text-lg font-semibold"
              onSave={saveTitle}
              display={<span className="break-words">{conversation.title}</span>}
              wrap={(content) => <h1 className={titleClass}>{content}</h1>}
            />
          ) : (
            <h1 className={titleClass}>{conversation.title}</h1>
          )}
        </div>
        {canManage && (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" aria-label={t('detail.menu')}>
                <MoreHorizontal />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuItem destructive onSelect={() => setConfirmDelete(true)}>
                <Trash2 />
                {t('detail.delete')}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        {conversation.teamName ? (
          <Badge variant="primary" title={conversation.teamName}>
            <Users aria-hidden />
            {conversation.teamName}
          </Badge>
        ) : (
          <Badge>{t('detail.personal')}</Badge>
        )}
        <span>
          {t('detail.updated')} <RelativeTime value={conversation.updatedAt} />
        </span>
        {canManage ? (
          <InlineEdit
            draft={conversation.tags.join(', ')}
            label={t('detail.tagsLabel')}
            editLabel={t('detail.editTags')}
            className="sm:max-w-md"
            onSave={saveTags}
            display={tagList ?? <span className="px-1">{t('detail.addTags')}</span>}
          />
        ) : (
          tagList
        )}
      </div>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t('detail.deleteTitle')}
        description={t('detail.deleteText')}
        confirmLabel={t('detail.delete')}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              toast({ title: t('detail.deleted'), tone: 'success' })
              navigate('/conversations', { replace: true })
            },
            onError: (error) =>
              toast({
                title: t('detail.deleteFailed'),
                description: errorText(error, t('detail.deleteFailed')),
                tone: 'error',
              }),
          })
        }
      />
    </header>
  )
}
