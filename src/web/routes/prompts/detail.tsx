import { Check, FileDown, Pencil } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import type { PromptDetail, VersionSummary } from '../../../domain/prompts.ts'
import { formatLongDateTime } from '../../../domain/time.ts'
import { BackLink, PageHeader } from '../../components/page-header.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { CodeBlock } from '../../components/ui/code-block.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { PromptUsagePanel } from '../../features/conversations/index.ts'
import { PlaygroundCard } from '../../features/models/index.ts'
import {
  CodeSnippetCard,
  CompareVersionsButton,
  CopyButton,
  LabelsCard,
  PromptBodyView,
  PromptLoadFailed,
  PromptLoading,
  TryItCard,
  UsedByCard,
  useMarkdownExport,
  usePrompt,
  useSetCurrentVersion,
  VersionHistoryCard,
  ViewVersionButton,
  VisibilityLabel,
} from '../../features/prompts/index.ts'
import { useMyTeams } from '../../features/teams/index.ts'
import { currentLanguage } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

function SetAsCurrentButton({ promptId, version }: { promptId: string; version: VersionSummary }) {
  const { t } = useTranslation('prompts')
  const setCurrent = useSetCurrentVersion(promptId)
  const onClick = () =>
    setCurrent.mutate(version.id, {
      onSuccess: () =>
        toast({ title: t('detail.nowCurrent', { number: version.versionNumber }), tone: 'success' }),
      onError: (error) => toast({ title: errorText(error, t('detail.setCurrentFailed')), tone: 'error' }),
    })
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={onClick}
      disabled={setCurrent.isPending}
      aria-label={`${t('detail.setAsCurrent')}: ${t('detail.version', { number: version.versionNumber })}`}
    >
      <Check aria-hidden />
      {setCurrent.isPending ? t('detail.settingCurrent') : t('detail.setAsCurrent')}
    </Button>
  )
}

function PromptDetailView({ prompt }: { prompt: PromptDetail }) {
  const { t } = useTranslation('prompts')
  const publicApi = useTranslation('publicApi')
  const { currentVersion: current, access } = prompt
  useDocumentTitle(prompt.title)
  const toMarkdown = useMarkdownExport()
  const teams = useMyTeams()
  const teamName = teams.data?.find((team) => team.id === prompt.teamId)?.name
  const language = currentLanguage()

  return (
    <>
      <BackLink to="/prompts" className="mb-4">
        {t('detail.back')}
      </BackLink>
      <PageHeader
        title={prompt.title}
        description={prompt.description ?? undefined}
        actions={
          access.edit && (
            <Button asChild>
              <Link to={`/prompts/${prompt.id}/edit`}>
                <Pencil aria-hidden />
                {t('detail.edit')}
              </Link>
            </Button>
          )
        }
      />
      <div className="-mt-3 mb-6 space-y-3">
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <VisibilityLabel visibility={prompt.visibility} teamName={teamName} />
          <span>
            {publicApi.t('promptName')}: <code className="font-mono">{prompt.name}</code>
          </span>
          {prompt.type === 'chat' && <span>{t('detail.type_chat')}</span>}
          <span>{t('detail.updated', { date: formatLongDateTime(prompt.updatedAt, language) })}</span>
          <span>{t('detail.versionCount', { count: prompt.versionCount })}</span>
          {!access.edit && (
            <span>
              {prompt.ownerDeleted
                ? t('list.deletedUser')
                : prompt.ownerEmail
                  ? t('list.byOwner', { email: prompt.ownerEmail })
                  : t('list.member')}
            </span>
          )}
        </p>
        {prompt.tags.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label={t('form.tags')}>
            {prompt.tags.map((tag) => (
              <li key={tag} className="max-w-full">
                <Badge title={tag}>{tag}</Badge>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="space-y-6">
        <Card role="region" aria-label={t('detail.currentVersion')}>
          <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
            <div className="space-y-1">
              <CardTitle>{t('detail.currentVersion')}</CardTitle>
              {current && (
                <p className="text-sm text-muted-foreground">
                  {t('detail.version', { number: current.versionNumber })} ·{' '}
                  <time dateTime={current.createdAt}>{formatLongDateTime(current.createdAt, language)}</time>
                </p>
              )}
            </div>
            {current && (
              <div className="flex flex-wrap gap-2">
                <CopyButton kind="content" text={current.body} />
                <CopyButton
                  kind="markdown"
                  icon={<FileDown aria-hidden />}
                  label={t('form.copyMarkdown')}
                  text={() =>
                    toMarkdown({
                      title: prompt.title,
                      description: prompt.description,
                      tags: prompt.tags,
                      visibility: prompt.visibility,
                      versionNumber: current.versionNumber,
                      changelog: current.changelog,
                      body: current.body,
                    })
                  }
                />
              </div>
            )}
          </CardHeader>
          <CardContent className="space-y-3">
            {current ? (
              <>
                {current.changelog && (
                  <p className="text-sm">
                    <span className="font-medium">{t('detail.changelog')}:</span> {current.changelog}
                  </p>
                )}
                <PromptBodyView type={prompt.type} body={current.body} />
                {Object.keys(current.config).length > 0 && (
                  <div className="space-y-1.5">
                    <p className="text-sm font-medium">{t('detail.config')}</p>
                    <CodeBlock label={t('detail.config')}>
                      {JSON.stringify(current.config, null, 2)}
                    </CodeBlock>
                  </div>
                )}
              </>
            ) : (
              <p className="text-sm text-muted-foreground">{t('detail.noCurrentVersion')}</p>
            )}
          </CardContent>
        </Card>

        {/* Keyed by the current version (each starts again when it changes), distinctly: siblings
            with one key are duplicated by React when the key changes. */}
        {current && <TryItCard key={`try-${current.id}`} type={prompt.type} version={current} />}
        {current && (
          <PlaygroundCard
            key={`playground-${current.id}`}
            promptId={prompt.id}
            type={prompt.type}
            current={current}
            canEdit={prompt.access.edit}
          />
        )}

        {prompt.versionCount > 1 && (
          <VersionHistoryCard
            promptId={prompt.id}
            currentVersionId={prompt.currentVersionId}
            actions={(version) => (
              <>
                <ViewVersionButton promptId={prompt.id} type={prompt.type} version={version} />
                {version.id !== prompt.currentVersionId && (
                  <CompareVersionsButton
                    promptId={prompt.id}
                    type={prompt.type}
                    version={version}
                    currentVersionId={prompt.currentVersionId}
                  />
                )}
                {access.setCurrent && version.id !== prompt.currentVersionId && (
                  <SetAsCurrentButton promptId={prompt.id} version={version} />
                )}
              </>
            )}
          />
        )}
        <UsedByCard promptId={prompt.id} />
        <LabelsCard prompt={prompt} />
        <CodeSnippetCard prompt={prompt} />
        <PromptUsagePanel promptId={prompt.id} />
      </div>
    </>
  )
}

export function PromptDetailPage() {
  const { id = '' } = useParams()
  const detail = usePrompt(id)
  if (detail.isPending) return <PromptLoading />
  if (detail.isError) return <PromptLoadFailed error={detail.error} onRetry={() => detail.refetch()} />
  return <PromptDetailView prompt={detail.data} />
}
