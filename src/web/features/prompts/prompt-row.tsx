import { Eye, Pencil } from 'lucide-react'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { CARD_TAG_LIMIT } from '../../../domain/constants.ts'
import { baseNameOf, foldersOf } from '../../../domain/prompt-folders.ts'
import { type SearchMatch, snippetParts } from '../../../domain/prompt-search.ts'
import type { PromptSummary } from '../../../domain/prompts.ts'
import { RelativeTime } from '../../components/relative-time.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card } from '../../components/ui/card.tsx'
import { CopyButton } from './copy-button.tsx'
import { useVersion } from './queries.ts'
import { VisibilityIcon } from './visibility.tsx'

interface PromptRowProps {
  prompt: PromptSummary
  canEdit: boolean
  /** Team Prompts: the owner's email (or 'Member') and the team's name. */
  showOwner: boolean
  teamName?: string
  /** Filters the list to a folder of the prompt's name. */
  onFolder?: (folder: string) => void
}

/** Where a searched prompt matched, the matched words marked (as elements, never as HTML). */
function SearchMatchLine({ match }: { match: SearchMatch }) {
  const { t } = useTranslation('prompts')
  const where =
    match.field === 'body'
      ? t('list.matchBody', { number: match.versionNumber })
      : match.field === 'description'
        ? t('list.matchDescription')
        : t('list.matchTitle')
  return (
    <p className="line-clamp-3 text-sm break-words" data-testid="search-match">
      <span className="font-medium text-muted-foreground">{where}: </span>
      {snippetParts(match.snippet, match.highlights).map((part, i) =>
        part.marked ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
          <mark key={i} className="rounded-sm bg-yellow-200 text-foreground dark:bg-yellow-800">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  )
}

/**
 * The prompt's name as the API knows it, its folders as buttons that filter the list to them
 * (Langfuse shows `a/b` names as folders).
 */
function NamePath({ name, onFolder }: { name: string; onFolder?: (folder: string) => void }) {
  const { t } = useTranslation('prompts')
  const folders = foldersOf(name)
  return (
    <p className="font-mono text-xs break-all text-muted-foreground" data-testid="prompt-name">
      <span className="sr-only">{t('list.folderPath')}: </span>
      {folders.map((folder) => (
        <span key={folder}>
          {onFolder ? (
            <button
              type="button"
              className="rounded-sm underline-offset-2 hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              onClick={() => onFolder(folder)}
              aria-label={t('list.openFolder', { folder })}
            >
              {baseNameOf(folder)}
            </button>
          ) : (
            baseNameOf(folder)
          )}
          /
        </span>
      ))}
      <span>{baseNameOf(name)}</span>
    </p>
  )
}

/** What a Langfuse user looks for in a row: the type, the labels and the number of versions. */
function PromptFacts({ prompt }: { prompt: PromptSummary }) {
  const { t } = useTranslation('prompts')
  const type = prompt.type === 'chat' ? t('list.typeChat') : t('list.typeText')
  return (
    <>
      <Badge variant="outline">
        <span className="sr-only">{t('list.typeLabel')}: </span>
        {type}
      </Badge>
      <span>{t('list.versions', { count: prompt.versionCount })}</span>
      {prompt.labels.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label={t('list.labelsLabel')}>
          {prompt.labels.map((label) => (
            <li key={label}>
              <Badge variant="outline" className="font-mono" title={label}>
                {label}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

/** One prompt in the list: what it is, when it changed, its current version, tags, and actions. */
export function PromptRow({ prompt, canEdit, showOwner, teamName, onFolder }: PromptRowProps) {
  const { t } = useTranslation('prompts')
  const shownTags = prompt.tags.slice(0, CARD_TAG_LIMIT)
  const hiddenTags = prompt.tags.slice(CARD_TAG_LIMIT)
  const versionOf = useVersion(prompt.id)
  const currentVersionId = prompt.currentVersionId
  return (
    <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:gap-4">
      <div className="min-w-0 flex-1 space-y-1.5">
        <div className="flex items-center gap-2">
          <VisibilityIcon visibility={prompt.visibility} className="text-muted-foreground" />
          <h2 className="line-clamp-2 min-w-0 font-semibold break-words">
            <Link to={`/prompts/${prompt.id}`} className="hover:underline">
              {prompt.title}
            </Link>
          </h2>
        </div>
        <NamePath name={prompt.name} onFolder={onFolder} />
        {prompt.description && (
          <p className="line-clamp-2 text-sm text-muted-foreground">{prompt.description}</p>
        )}
        {prompt.match && <SearchMatchLine match={prompt.match} />}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-muted-foreground">
          <span>
            <Trans
              t={t}
              i18nKey="list.updated"
              components={{ date: <RelativeTime value={prompt.updatedAt} /> }}
            />
          </span>
          {prompt.currentVersionNumber !== null ? (
            <Badge variant="primary">
              {t('list.currentVersion', { number: prompt.currentVersionNumber })}
            </Badge>
          ) : (
            <Badge variant="outline">{t('list.noVersion')}</Badge>
          )}
          <PromptFacts prompt={prompt} />
          {showOwner && (
            <span>
              {prompt.ownerDeleted
                ? t('list.deletedUser')
                : prompt.ownerEmail
                  ? t('list.byOwner', { email: prompt.ownerEmail })
                  : t('list.member')}
            </span>
          )}
          {teamName && (
            <Badge variant="outline" title={teamName}>
              {teamName}
            </Badge>
          )}
        </div>
        {prompt.tags.length > 0 && (
          <ul className="flex flex-wrap gap-1.5">
            {shownTags.map((tag) => (
              <li key={tag} className="max-w-full">
                <Badge title={tag}>{tag}</Badge>
              </li>
            ))}
            {hiddenTags.length > 0 && (
              <li>
                <Badge
                  variant="outline"
                  title={hiddenTags.join(', ')}
                  aria-label={t('list.moreTagsLabel', {
                    count: hiddenTags.length,
                    tags: hiddenTags.join(', '),
                  })}
                >
                  {t('list.moreTags', { count: hiddenTags.length })}
                </Badge>
              </li>
            )}
          </ul>
        )}
      </div>
      {/* On a phone the three actions share the row: without their icons even the German labels fit. */}
      <div className="grid shrink-0 grid-cols-3 gap-2 max-sm:[&_svg]:hidden sm:flex [&>*]:px-2 sm:[&>*]:px-3">
        {/* The list carries no bodies: the current version's is fetched (once) when copied. */}
        {currentVersionId !== null && (
          <CopyButton kind="prompt" text={async () => (await versionOf(currentVersionId)).body} />
        )}
        <Button asChild variant="outline" size="sm">
          <Link to={`/prompts/${prompt.id}`} aria-label={`${t('list.view')}: ${prompt.title}`}>
            <Eye aria-hidden />
            {t('list.view')}
          </Link>
        </Button>
        {canEdit && (
          <Button asChild variant="outline" size="sm">
            <Link to={`/prompts/${prompt.id}/edit`} aria-label={`${t('list.edit')}: ${prompt.title}`}>
              <Pencil aria-hidden />
              {t('list.edit')}
            </Link>
          </Button>
        )}
      </div>
    </Card>
  )
}
