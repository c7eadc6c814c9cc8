import {
  ExternalLink,
  FilePlus2,
  LayoutTemplate,
  Link2,
  MessageSquarePlus,
  MessagesSquare,
  MoreHorizontal,
  ScrollText,
  Users,
} from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { CARD_TAG_LIMIT } from '../../../domain/constants.ts'
import type { ContinueItem } from '../../../domain/dashboard.ts'
import type { PromptSummary } from '../../../domain/prompts.ts'
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
import { Tooltip } from '../../components/ui/tooltip.tsx'
import { errorText } from '../../lib/api.ts'
import { copyText } from '../../lib/clipboard.ts'
import { NewConversationDialog } from '../conversations/index.ts'
import { useDeletePrompt } from '../prompts/index.ts'
import { CreateTeamDialog } from '../teams/index.ts'
import {
  useFailureToast,
  useRecentConversations,
  useRecentPrompts,
  useRefreshDashboard,
  useTeamPrompts,
} from './queries.ts'
import { Widget, WidgetBody, WidgetEmpty } from './widget.tsx'

const itemPath = (item: Pick<ContinueItem, 'kind' | 'id'>) =>
  item.kind === 'prompt' ? `/prompts/${item.id}` : `/conversations/${item.id}`

/** Copy link: the clipboard first; where it is unavailable the URL is shown to copy by hand. */
async function copyLink(path: string, t: (key: 'toast.linkCopied' | 'toast.copied') => string) {
  const url = `${window.location.origin}${path}`
  if (await copyText(url)) toast({ title: t('toast.linkCopied'), tone: 'success' })
  else toast({ title: t('toast.copied'), description: url })
}

/** 'Continue': the 3 most recent items of the context, each with Open and Copy link. */
export function ContinueWidget({
  query,
}: {
  query: { isPending: boolean; isError: boolean; refetch: () => unknown; data?: { continue: ContinueItem[] } }
}) {
  const { t } = useTranslation('dashboard')
  const title = t('continue.title')
  return (
    <Widget title={title} icon={ExternalLink}>
      <WidgetBody title={title} query={query}>
        {() =>
          query.data!.continue.length === 0 ? (
            <WidgetEmpty>{t('continue.empty')}</WidgetEmpty>
          ) : (
            <ul className="divide-y">
              {query.data!.continue.map((item) => (
                <li key={item.id} className="flex flex-wrap items-center gap-2 py-2 first:pt-0 last:pb-0">
                  {item.kind === 'prompt' ? (
                    <ScrollText aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  ) : (
                    <MessagesSquare aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  )}
                  <div className="min-w-0 flex-1 basis-40">
                    <p className="truncate text-sm font-medium">{item.title}</p>
                    <p className="text-xs text-muted-foreground">
                      {t(`continue.${item.kind}`)} · <RelativeTime value={item.updatedAt} />
                    </p>
                  </div>
                  <Button asChild size="sm" variant="outline">
                    <Link to={itemPath(item)} aria-label={t('continue.openLabel', { title: item.title })}>
                      {t('continue.open')}
                    </Link>
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t('continue.copyLinkLabel', { title: item.title })}
                    onClick={() => void copyLink(itemPath(item), t)}
                  >
                    <Link2 aria-hidden />
                    {t('continue.copyLink')}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </WidgetBody>
    </Widget>
  )
}

/** 'Create': Blank Prompt, Prompt from Template (not built yet), New Conversation. */
export function CreateWidget({ teamId }: { teamId: string | null }) {
  const { t } = useTranslation('dashboard')
  const [creating, setCreating] = useState(false)
  return (
    <Widget title={t('create.title')} icon={FilePlus2}>
      <div className="flex flex-col gap-2">
        <Button asChild variant="outline" className="justify-start">
          <Link to="/prompts/new">
            <FilePlus2 aria-hidden />
            {t('create.blankPrompt')}
          </Link>
        </Button>
        <Tooltip content={t('create.comingSoon')}>
          {/* aria-disabled, not disabled: it stays focusable, so keyboard users find the tooltip too. */}
          <Button
            variant="outline"
            className="cursor-not-allowed justify-start opacity-50"
            aria-disabled="true"
            aria-description={t('create.comingSoon')}
            onClick={(event) => event.preventDefault()}
          >
            <LayoutTemplate aria-hidden />
            {t('create.fromTemplate')}
          </Button>
        </Tooltip>
        <Button variant="outline" className="justify-start" onClick={() => setCreating(true)}>
          <MessageSquarePlus aria-hidden />
          {t('create.newConversation')}
        </Button>
      </div>
      <NewConversationDialog open={creating} onOpenChange={setCreating} defaultTeamId={teamId ?? undefined} />
    </Widget>
  )
}

function PromptActions({ prompt }: { prompt: PromptSummary }) {
  const { t } = useTranslation('dashboard')
  const [confirming, setConfirming] = useState(false)
  const remove = useDeletePrompt()
  const refresh = useRefreshDashboard()
  const confirmDelete = () =>
    remove.mutate(prompt.id, {
      onSuccess: () => {
        setConfirming(false)
        toast({ title: t('toast.deleted'), tone: 'success' })
        refresh()
      },
      onError: (error) => {
        const title = t('toast.deleteFailed')
        toast({ title, description: errorText(error, title), tone: 'error' })
      },
    })
  if (!prompt.access.edit && !prompt.access.delete) return null
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            aria-label={t('recentPrompts.actions', { title: prompt.title })}
          >
            <MoreHorizontal aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          {prompt.access.edit && (
            <DropdownMenuItem asChild>
              <Link to={`/prompts/${prompt.id}/edit`}>{t('recentPrompts.edit')}</Link>
            </DropdownMenuItem>
          )}
          {prompt.access.delete && (
            <DropdownMenuItem className="text-destructive" onSelect={() => setConfirming(true)}>
              {t('recentPrompts.delete')}
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('recentPrompts.deleteTitle')}
        description={t('recentPrompts.deleteText')}
        cancelLabel={t('recentPrompts.cancel')}
        confirmLabel={remove.isPending ? t('recentPrompts.deleting') : t('recentPrompts.confirm')}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </>
  )
}

/** 'My Prompts (Recent)': 5, with version and visibility badges, 3 tags and the actions menu. */
export function RecentPromptsWidget() {
  const { t } = useTranslation('dashboard')
  const query = useRecentPrompts()
  useFailureToast(query.isError, t('toast.recentPromptsFailed'))
  const title = t('recentPrompts.title')
  return (
    <Widget
      title={title}
      icon={ScrollText}
      actions={
        <Button asChild variant="link" size="sm">
          <Link to="/prompts">{t('recentPrompts.viewAll')}</Link>
        </Button>
      }
    >
      <WidgetBody title={title} query={query} rows={5}>
        {() =>
          query.data!.items.length === 0 ? (
            <WidgetEmpty>{t('recentPrompts.empty')}</WidgetEmpty>
          ) : (
            <ul className="divide-y" aria-label={title}>
              {query.data!.items.map((prompt) => (
                <li key={prompt.id} className="flex items-start gap-2 py-2 first:pt-0 last:pb-0">
                  <div className="min-w-0 flex-1 space-y-1">
                    <Link
                      to={`/prompts/${prompt.id}`}
                      className="block truncate text-sm font-medium hover:underline"
                    >
                      {prompt.title}
                    </Link>
                    <div className="flex flex-wrap items-center gap-1">
                      {prompt.currentVersionNumber !== null && (
                        <Badge variant="primary">
                          {t('recentPrompts.version', { number: prompt.currentVersionNumber })}
                        </Badge>
                      )}
                      <Badge variant="outline">
                        {prompt.visibility === 'team' ? t('recentPrompts.team') : t('recentPrompts.private')}
                      </Badge>
                      {prompt.tags.slice(0, CARD_TAG_LIMIT).map((tag) => (
                        <Badge key={tag} title={tag}>
                          {tag}
                        </Badge>
                      ))}
                    </div>
                  </div>
                  <PromptActions prompt={prompt} />
                </li>
              ))}
            </ul>
          )
        }
      </WidgetBody>
    </Widget>
  )
}

/** 'My Conversations (Recent)': 5. */
export function RecentConversationsWidget() {
  const { t } = useTranslation('dashboard')
  const query = useRecentConversations()
  useFailureToast(query.isError, t('toast.recentConversationsFailed'))
  const title = t('recentConversations.title')
  return (
    <Widget
      title={title}
      icon={MessagesSquare}
      actions={
        <Button asChild variant="link" size="sm">
          <Link to="/conversations">{t('recentConversations.viewAll')}</Link>
        </Button>
      }
    >
      <WidgetBody title={title} query={query} rows={5}>
        {() =>
          query.data!.items.length === 0 ? (
            <WidgetEmpty>{t('recentConversations.empty')}</WidgetEmpty>
          ) : (
            <ul className="divide-y" aria-label={title}>
              {query.data!.items.map((conversation) => (
                <li key={conversation.id} className="flex items-center gap-2 py-2 first:pt-0 last:pb-0">
                  <Link
                    to={`/conversations/${conversation.id}`}
                    className="min-w-0 flex-1 truncate text-sm font-medium hover:underline"
                  >
                    {conversation.title}
                  </Link>
                  {conversation.teamName && <Badge variant="outline">{conversation.teamName}</Badge>}
                  <span className="shrink-0 text-xs text-muted-foreground">
                    <RelativeTime value={conversation.updatedAt} />
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </WidgetBody>
    </Widget>
  )
}

/**
 * 'Team Prompts (Recent)': personal context says there is no team yet (with Create team and the
 * Upgrade link), or,
 * for a user who has teams, that choosing one shows its prompts;
 * team context lists up to 5 of the team's prompts with the owner's email or 'Member'.
 */
export function TeamPromptsWidget({ teamId, hasTeams }: { teamId: string | null; hasTeams: boolean }) {
  const { t } = useTranslation('dashboard')
  const query = useTeamPrompts(teamId)
  useFailureToast(query.isError, t('toast.teamPromptsFailed'))
  const title = t('teamPrompts.title')
  return (
    <Widget
      title={title}
      icon={Users}
      actions={
        teamId && (
          <Button asChild variant="link" size="sm">
            <Link to={`/prompts?scope=team&teamId=${teamId}`}>{t('teamPrompts.viewAll')}</Link>
          </Button>
        )
      }
    >
      {teamId === null && hasTeams ? (
        <WidgetEmpty>{t('teamPrompts.pickTeam')}</WidgetEmpty>
      ) : teamId === null ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <WidgetEmpty>{t('teamPrompts.noTeam')}</WidgetEmpty>
          {/* Creating a team is what a user without one needs; the spec's Upgrade link stays beside it. */}
          <div className="flex items-center gap-1">
            <Button asChild variant="link" size="sm">
              <Link to="/billing">{t('teamPrompts.upgrade')}</Link>
            </Button>
            <CreateTeamDialog size="sm" />
          </div>
        </div>
      ) : (
        <WidgetBody title={title} query={query} rows={5}>
          {() =>
            query.data!.items.length === 0 ? (
              <WidgetEmpty>{t('teamPrompts.empty')}</WidgetEmpty>
            ) : (
              <ul className="divide-y" aria-label={title}>
                {query.data!.items.map((prompt) => (
                  <li key={prompt.id} className="py-2 first:pt-0 last:pb-0">
                    <Link
                      to={`/prompts/${prompt.id}`}
                      className="block truncate text-sm font-medium hover:underline"
                    >
                      {prompt.title}
                    </Link>
                    <p className="truncate text-xs text-muted-foreground">
                      {prompt.ownerEmail ?? t('teamPrompts.member')}
                    </p>
                  </li>
                ))}
              </ul>
            )
          }
        </WidgetBody>
      )}
    </Widget>
  )
}
