import { Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { CARD_TAG_LIMIT } from '../../../domain/constants.ts'
import type { ConversationSummary } from '../../../domain/conversations.ts'
import { RelativeTime } from '../../components/relative-time.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Card } from '../../components/ui/card.tsx'
import { Skeleton } from '../../components/ui/skeleton.tsx'
import { Tooltip } from '../../components/ui/tooltip.tsx'

/**
 * A conversation in the list: title (the link), relative update time, team badge, and up to 3 tags
 * plus '+N'. A tag is a button that filters the list by it, so the card is not one big link.
 */
export function ConversationCard({
  conversation,
  onTagClick,
}: {
  conversation: ConversationSummary
  onTagClick: (tag: string) => void
}) {
  const { t } = useTranslation('conversations')
  const shown = conversation.tags.slice(0, CARD_TAG_LIMIT)
  const hidden = conversation.tags.slice(CARD_TAG_LIMIT)
  return (
    <Card className="relative flex w-full min-w-0 flex-col gap-3 p-4 transition-colors focus-within:border-primary/60 hover:border-primary/50">
      <h2 className="line-clamp-2 font-medium break-words">
        <Link
          to={`/conversations/${conversation.id}`}
          className="outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:underline"
        >
          {conversation.title}
        </Link>
      </h2>
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <span>
          {t('list.updated')} <RelativeTime value={conversation.updatedAt} />
        </span>
        {conversation.teamName && (
          <Badge variant="primary" className="max-w-full">
            <Users aria-hidden />
            <span className="truncate">{conversation.teamName}</span>
          </Badge>
        )}
      </div>
      {conversation.tags.length > 0 && (
        <ul className="relative z-10 mt-auto flex flex-wrap gap-1.5">
          {shown.map((tag) => (
            <li key={tag}>
              <button
                type="button"
                onClick={() => onTagClick(tag)}
                aria-label={t('list.filterByTag', { tag })}
                className="cursor-pointer rounded-full border px-2 py-0.5 text-xs text-muted-foreground transition-colors hover:border-primary/50 hover:text-foreground"
              >
                #{tag}
              </button>
            </li>
          ))}
          {hidden.length > 0 && (
            <li>
              <Tooltip content={hidden.join(', ')}>
                <button type="button" className="cursor-help rounded-full bg-muted px-2 py-0.5 text-xs">
                  {t('list.moreTags', { count: hidden.length })}
                </button>
              </Tooltip>
            </li>
          )}
        </ul>
      )}
    </Card>
  )
}

const SKELETON_CARDS = ['a', 'b', 'c', 'd', 'e', 'f']

/** The loading state: 6 card-shaped placeholders. */
export function ConversationCardsSkeleton() {
  return (
    <div
      className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3"
      data-testid="conversations-skeleton"
    >
      {SKELETON_CARDS.map((key) => (
        <Card key={key} className="flex flex-col gap-3 p-4">
          <Skeleton className="h-5 w-3/4" />
          <Skeleton className="h-3 w-1/3" />
          <div className="flex gap-1.5">
            <Skeleton className="h-5 w-14 rounded-full" />
            <Skeleton className="h-5 w-10 rounded-full" />
          </div>
        </Card>
      ))}
    </div>
  )
}
