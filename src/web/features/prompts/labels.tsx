import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { Tag, Undo2 } from 'lucide-react'
import { useState } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { LabelEvent } from '../../../domain/prompt-names.ts'
import type { PromptDetail } from '../../../domain/prompts.ts'
import { RelativeTime } from '../../components/relative-time.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { CodeBlock } from '../../components/ui/code-block.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select } from '../../components/ui/input.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { callOperation, errorText } from '../../lib/api.ts'
import { invalidateOperations, pagedOperationQuery } from '../../lib/queries.ts'
import {
  curlSnippet,
  javascriptSnippet,
  mcpSnippet,
  pythonSnippet,
  useSnippetComments,
} from '../api-keys/index.ts'
import { useMyTeams } from '../teams/index.ts'
import { usePromptVersions } from './queries.ts'

function useLabelMutation<T>(mutationFn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSuccess: () => invalidateOperations(queryClient, promptOperations, promptLabelOperations),
  })
}

/**
 * The detail page's 'Labels' card: move a label to a version (production is 'Set as Current'),
 * and the label history with one-click revert. Only shown to whoever may set the current version.
 */
export function LabelsCard({ prompt }: { prompt: PromptDetail }) {
  const { t } = useTranslation('publicApi')
  const versions = usePromptVersions(prompt.id)
  const items = versions.data?.pages.flatMap((page) => page.items) ?? []
  const [label, setLabel] = useState('staging')
  const [versionId, setVersionId] = useState('')
  const move = useLabelMutation((body: { label: string; versionId: string }) =>
    callOperation(promptLabelOperations.set, { params: { id: prompt.id }, body }),
  )
  const chosen = versionId || items[0]?.id || ''
  const onMove = () => {
    const number = items.find((version) => version.id === chosen)?.versionNumber
    move.mutate(
      { label: label.trim(), versionId: chosen },
      {
        onSuccess: () => toast({ title: t('moved', { label: label.trim(), number }), tone: 'success' }),
        onError: (error) => toast({ title: errorText(error, t('moveFailed')), tone: 'error' }),
      },
    )
  }
  return (
    <Card role="region" aria-label={t('labels')}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Tag aria-hidden className="size-4 text-muted-foreground" />
          {t('labels')}
        </CardTitle>
        <CardDescription>{t('labelsText')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {prompt.access.setCurrent && items.length > 0 && (
          <form
            className="flex flex-wrap items-end gap-3"
            onSubmit={(event) => {
              event.preventDefault()
              onMove()
            }}
          >
            <Field label={t('label')} className="w-48">
              <Input value={label} onChange={(event) => setLabel(event.target.value)} autoComplete="off" />
            </Field>
            {/* As wide as its longest choice ("v3 (production, staging)"), never cut. */}
            <Field label={t('labelVersion')} className="min-w-40 max-w-full">
              <Select
                value={chosen}
                className="w-auto max-w-full"
                onChange={(event) => setVersionId(event.target.value)}
              >
                {items.map((version) => (
                  <option key={version.id} value={version.id}>
                    {t('versionShort', { number: version.versionNumber })}
                    {version.labels.length > 0 ? ` (${version.labels.join(', ')})` : ''}
                  </option>
                ))}
              </Select>
            </Field>
            <Button type="submit" variant="outline" disabled={move.isPending || !label.trim()}>
              {move.isPending ? t('moving') : t('moveLabel')}
            </Button>
          </form>
        )}
        <LabelHistory prompt={prompt} />
      </CardContent>
    </Card>
  )
}

function useEventText() {
  const { t } = useTranslation('publicApi')
  const version = (number: number | null) => (number === null ? t('none') : t('versionShort', { number }))
  return (event: LabelEvent) =>
    t('historyEntry', { label: event.label, from: version(event.fromVersion), to: version(event.toVersion) })
}

function LabelHistory({ prompt }: { prompt: PromptDetail }) {
  const { t } = useTranslation('publicApi')
  const eventText = useEventText()
  const history = useInfiniteQuery(
    pagedOperationQuery(promptLabelOperations.history, { params: { id: prompt.id }, query: {} }),
  )
  const revert = useLabelMutation((eventId: string) =>
    callOperation(promptLabelOperations.revert, { params: { id: prompt.id, eventId } }),
  )
  const events = history.data?.pages.flatMap((page) => page.items) ?? []
  return (
    <section aria-label={t('history')} className="space-y-2">
      <h3 className="text-sm font-semibold">{t('history')}</h3>
      {history.isPending ? (
        <LoadingSkeletons label={t('historyLoading')}>
          <Skeleton className="h-10" />
        </LoadingSkeletons>
      ) : history.isError ? (
        <RetryAlert
          title={errorText(history.error, t('historyFailed'))}
          onRetry={() => void history.refetch()}
        />
      ) : events.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('historyEmpty')}</p>
      ) : (
        <ol className="divide-y text-sm">
          {events.map((event) => (
            <li key={event.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <span className="font-mono">{eventText(event)}</span>{' '}
                <span className="text-muted-foreground">
                  {t('by', {
                    who: event.apiKeyName
                      ? t('byKey', { name: event.apiKeyName })
                      : (event.actorEmail ?? t('someone')),
                  })}{' '}
                  · <RelativeTime value={event.createdAt} />
                </span>
              </span>
              {prompt.access.setCurrent && (
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={revert.isPending}
                  aria-label={`${t('revert')}: ${eventText(event)}`}
                  onClick={() =>
                    revert.mutate(event.id, {
                      onSuccess: () => toast({ title: t('reverted'), tone: 'success' }),
                      onError: (error) =>
                        toast({ title: errorText(error, t('revertFailed')), tone: 'error' }),
                    })
                  }
                >
                  <Undo2 aria-hidden />
                  {t('revert')}
                </Button>
              )}
            </li>
          ))}
        </ol>
      )}
      {history.hasNextPage && (
        <Button variant="outline" size="sm" onClick={() => void history.fetchNextPage()}>
          …
        </Button>
      )}
    </section>
  )
}

/** Where the keys that fetch this prompt are made: its team's keys, or the owner's personal ones. */
function KeyHint({ prompt }: { prompt: PromptDetail }) {
  const { t } = useTranslation('publicApi')
  const teams = useMyTeams()
  const teamName = teams.data?.find((team) => team.id === prompt.teamId)?.name
  // The tag is <keys>, not <link>: Trans parses <link> as HTML's empty element and drops the text.
  const link = (
    <Link
      to={prompt.teamId ? `/settings/api?team=${prompt.teamId}` : '/settings/api'}
      className="font-medium text-primary underline-offset-4 hover:underline"
    />
  )
  return (
    <CardDescription>
      {prompt.teamId ? (
        <Trans
          t={t}
          i18nKey="snippetTeamKey"
          values={{ name: prompt.name, team: teamName ?? t('thisTeam') }}
          components={{ keys: link, code: <code /> }}
        />
      ) : (
        <Trans
          t={t}
          i18nKey="snippetPersonalKey"
          values={{ name: prompt.name }}
          components={{ keys: link, code: <code /> }}
        />
      )}
    </CardDescription>
  )
}

/** How to fetch this prompt from code: curl, JavaScript and Python, by its name and the production label. */
export function CodeSnippetCard({ prompt }: { prompt: PromptDetail }) {
  const { t } = useTranslation('publicApi')
  const comments = useSnippetComments()
  return (
    <Card role="region" aria-label={t('snippet')}>
      <CardHeader>
        <CardTitle>{t('snippet')}</CardTitle>
        <KeyHint prompt={prompt} />
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="curl" className="space-y-3">
          <TabsList>
            <TabsTrigger value="curl">{t('curl')}</TabsTrigger>
            <TabsTrigger value="javascript">{t('javascript')}</TabsTrigger>
            <TabsTrigger value="python">{t('python')}</TabsTrigger>
            <TabsTrigger value="mcp">{t('mcp')}</TabsTrigger>
          </TabsList>
          <TabsContent value="curl">
            <CodeBlock label={t('curl')} className="text-xs">
              {curlSnippet(window.location.origin, prompt.name)}
            </CodeBlock>
          </TabsContent>
          <TabsContent value="javascript">
            <CodeBlock label={t('javascript')} className="text-xs">
              {javascriptSnippet(prompt.name, comments)}
            </CodeBlock>
          </TabsContent>
          <TabsContent value="python">
            <CodeBlock label={t('python')} className="text-xs">
              {pythonSnippet(prompt.name, comments)}
            </CodeBlock>
          </TabsContent>
          <TabsContent value="mcp" className="space-y-2">
            <p className="text-sm text-muted-foreground">{t('mcpPrompt', { name: prompt.name })}</p>
            <CodeBlock label={t('mcpCreated')} className="text-xs">
              {mcpSnippet(window.location.origin)}
            </CodeBlock>
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  )
}
