import { zodResolver } from '@hookform/resolvers/zod'
import { KeyRound, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { type ApiKey, type CreatedApiKey, createApiKeyInput } from '../../../domain/api-keys.ts'
import { CopyValue } from '../../components/copy-value.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { RelativeTime } from '../../components/relative-time.tsx'
import { SpaceSelect, useSpaceParam } from '../../components/space-select.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { CodeBlock } from '../../components/ui/code-block.tsx'
import { ConfirmDialog, Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select } from '../../components/ui/input.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../../features/api-keys/queries.ts'
import {
  envSnippet,
  javascriptSnippet,
  mcpSnippet,
  mcpUrl,
  useSnippetComments,
  vscodeMcpSnippet,
} from '../../features/api-keys/snippets.ts'
import { ApiAccessBadge } from '../../features/plans/index.ts'
import { useMyTeams } from '../../features/teams/index.ts'
import { errorText } from '../../lib/api.ts'
import { fieldError, reportSubmitError } from '../../lib/forms.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

function CreateKeyDialog({ teamId }: { teamId: string | null }) {
  const { t } = useTranslation('publicApi')
  const [open, setOpen] = useState(false)
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const create = useCreateApiKey()
  const form = useForm({
    resolver: zodResolver(createApiKeyInput),
    defaultValues: { name: '', scope: 'read' as const },
  })
  const onOpenChange = (next: boolean) => {
    setOpen(next)
    if (!next) {
      setCreated(null)
      form.reset()
    }
  }
  const onSubmit = form.handleSubmit((values) =>
    create
      .mutateAsync({ ...values, teamId })
      .then(setCreated, (error: unknown) => reportSubmitError(form.setError, error, t('createFailed'))),
  )
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <Button onClick={() => setOpen(true)}>
        <Plus aria-hidden />
        {t('create')}
      </Button>
      <DialogContent title={t('createTitle')} description={t('createDescription')}>
        {created ? (
          <div className="space-y-4">
            <p role="status" className="text-sm font-medium">
              {t('secretOnce')}
            </p>
            <CopyValue label={t('publicKey')} value={created.publicKey} />
            <CopyValue label={t('secretKey')} value={created.secretKey} />
            <CodeBlock label={t('usage')} className="text-xs">
              {envSnippet(window.location.origin, created.publicKey, created.secretKey)}
            </CodeBlock>
            <p className="text-sm font-medium">{t('mcpCreated')}</p>
            <CodeBlock label={t('mcpCreated')} className="text-xs">
              {mcpSnippet(window.location.origin, created.secretKey)}
            </CodeBlock>
            <DialogFooter>
              <Button onClick={() => onOpenChange(false)}>{t('done')}</Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={onSubmit} className="space-y-4" noValidate>
            <Field label={t('name')} error={fieldError(form.formState.errors, 'name')}>
              <Input placeholder={t('namePlaceholder')} autoComplete="off" {...form.register('name')} />
            </Field>
            <Field label={t('scope')} error={fieldError(form.formState.errors, 'scope')}>
              <Select {...form.register('scope')}>
                <option value="read">{t('scopeRead')}</option>
                <option value="read_write">{t('scopeReadWrite')}</option>
              </Select>
            </Field>
            <DialogFooter>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? t('creating') : t('create')}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}

function RevokeButton({ apiKey }: { apiKey: ApiKey }) {
  const { t } = useTranslation('publicApi')
  const [open, setOpen] = useState(false)
  const revoke = useRevokeApiKey()
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={`${t('revoke')}: ${apiKey.name}`}
      >
        <Trash2 aria-hidden />
        {t('revoke')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('revokeTitle', { name: apiKey.name })}
        description={t('revokeText')}
        confirmLabel={t('revoke')}
        pending={revoke.isPending}
        onConfirm={() =>
          revoke.mutate(apiKey.id, {
            onSuccess: () => {
              setOpen(false)
              toast({ title: t('revoked'), tone: 'success' })
            },
            onError: (error) => toast({ title: errorText(error, t('revokeFailed')), tone: 'error' }),
          })
        }
      />
    </>
  )
}

function KeyList({ teamId }: { teamId: string | null }) {
  const { t } = useTranslation('publicApi')
  const keys = useApiKeys(teamId)
  if (keys.isPending) {
    return (
      <LoadingSkeletons label={t('loading')} className="space-y-3">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </LoadingSkeletons>
    )
  }
  if (keys.isError) {
    return <RetryAlert title={errorText(keys.error, t('loadFailed'))} onRetry={() => void keys.refetch()} />
  }
  if (keys.data.items.length === 0) {
    return <EmptyState icon={KeyRound} title={t('empty')} text={t('emptyText')} />
  }
  return (
    <ul className="divide-y rounded-lg border" aria-label={t('keys')}>
      {keys.data.items.map((key) => (
        <li
          key={key.id}
          aria-label={key.name}
          className="flex flex-wrap items-center justify-between gap-3 p-4"
        >
          <div className="min-w-0 space-y-1">
            <p className="flex flex-wrap items-center gap-2 font-medium">
              {key.name}
              <Badge variant="outline">{key.scope === 'read' ? t('scopeRead') : t('scopeReadWrite')}</Badge>
            </p>
            <p className="font-mono text-xs break-all text-muted-foreground">
              {key.publicKey} · {key.secretHint}
            </p>
            <p className="text-xs text-muted-foreground">
              {key.createdByEmail && `${t('createdBy', { email: key.createdByEmail })} · `}
              <RelativeTime value={key.createdAt} /> ·{' '}
              {key.lastUsedAt ? (
                <>
                  {t('lastUsed')} <RelativeTime value={key.lastUsedAt} />
                </>
              ) : (
                t('neverUsed')
              )}
            </p>
          </div>
          <RevokeButton apiKey={key} />
        </li>
      ))}
    </ul>
  )
}

/** /settings/api: the caller's personal keys, and the keys of the teams they administer. */
export function ApiSettingsPage() {
  const { t } = useTranslation('publicApi')
  useDocumentTitle(t('title'))
  const comments = useSnippetComments()
  const teams = useMyTeams()
  const adminTeams = (teams.data ?? []).filter((team) => team.isAdmin)
  const [teamId, setTeamId] = useSpaceParam(teams.data && adminTeams)
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <div className="flex items-center gap-2">
            <ApiAccessBadge teamId={teamId ?? undefined} />
            <CreateKeyDialog teamId={teamId} />
          </div>
        }
      />
      <div className="space-y-6">
        {adminTeams.length > 0 && (
          <SpaceSelect
            label={t('space')}
            personalLabel={t('personal')}
            teamLabel={(name) => t('team', { name })}
            teams={adminTeams}
            value={teamId}
            onChange={setTeamId}
          />
        )}
        <KeyList teamId={teamId} />
        <Card>
          <CardHeader>
            <CardTitle>{t('usage')}</CardTitle>
            <CardDescription>{t('usageText')}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <CodeBlock label={t('usage')} className="text-xs">
              {envSnippet(window.location.origin)}
            </CodeBlock>
            <CodeBlock label={t('javascript')} className="text-xs">
              {javascriptSnippet('support/triage', comments)}
            </CodeBlock>
          </CardContent>
        </Card>
        <Card role="region" aria-label={t('mcpTitle')}>
          <CardHeader>
            <CardTitle>{t('mcpTitle')}</CardTitle>
            <CardDescription>{t('mcpText', { url: mcpUrl(window.location.origin) })}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            {/* Each client reads its own file format: the caption says which block goes where. */}
            <p className="text-sm font-medium">{t('mcpCreated')}</p>
            <CodeBlock label={t('mcpCreated')} className="text-xs">
              {mcpSnippet(window.location.origin)}
            </CodeBlock>
            <p className="text-sm font-medium">{t('mcpVscode')}</p>
            <CodeBlock label={t('mcpVscode')} className="text-xs">
              {vscodeMcpSnippet(window.location.origin)}
            </CodeBlock>
          </CardContent>
        </Card>
      </div>
    </>
  )
}
