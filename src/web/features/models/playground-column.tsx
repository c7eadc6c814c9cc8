import { Pencil, Play, Save, Square, Undo2 } from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ModelProvider } from '../../../domain/models.ts'
import { type PromptType, sameConfig } from '../../../domain/prompt-names.ts'
import { sameVariables } from '../../../domain/prompt-variables.ts'
import type { PromptVersion, VersionSummary } from '../../../domain/prompts.ts'
import { Alert, RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select, Textarea } from '../../components/ui/input.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { ApiError, errorText } from '../../lib/api.ts'
import { fieldText } from '../../lib/forms.ts'
import { ChatMessagesEditor, useSavePrompt } from '../prompts/index.ts'
import { useMyTeams } from '../teams/index.ts'
import { choiceOf, choiceValue, labelsOf, storedForm } from './playground-settings.ts'
import { RunOutput } from './run-output.tsx'
import type { Column } from './use-column.ts'
import { runFieldErrors } from './use-run.ts'

/** The version picker: versions by number, then the labels (each runs the version holding it). */
function VersionPicker({
  column,
  versions,
  currentId,
}: {
  column: Column
  versions: readonly Pick<VersionSummary, 'id' | 'versionNumber' | 'labels'>[]
  currentId: string
}) {
  const { t } = useTranslation('models')
  const labels = labelsOf(versions)
  return (
    <Field label={t('playground.version')}>
      <Select
        value={choiceValue(column.choice)}
        onChange={(event) => {
          const next = choiceOf(event.target.value, versions)
          if (next) column.choose(next)
        }}
      >
        <optgroup label={t('playground.versions')}>
          {versions.map((choice) => (
            <option key={choice.id} value={`version:${choice.id}`}>
              {choice.id === currentId
                ? t('playground.currentVersion', { number: choice.versionNumber })
                : t('playground.versionNumber', { number: choice.versionNumber })}
            </option>
          ))}
        </optgroup>
        {labels.length > 0 && (
          <optgroup label={t('playground.labels')}>
            {labels.map((label) => (
              <option key={label} value={`label:${label}`}>
                {t('playground.label', { label })}
              </option>
            ))}
          </optgroup>
        )}
      </Select>
    </Field>
  )
}

/** Provider, model, temperature and max tokens of one column. */
function SettingsFields({ column, providers }: { column: Column; providers: readonly ModelProvider[] }) {
  const { t } = useTranslation('models')
  const teams = useMyTeams()
  const modelListId = useId()
  const { settings, provider, version } = column
  const serverErrors = runFieldErrors(column.run.state)
  if (!settings || !version) return null
  const teamName = (teamId: string | null) => teams.data?.find((team) => team.id === teamId)?.name
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label={t('playground.provider')} error={serverErrors.providerId}>
        <Select
          value={provider.id}
          onChange={(event) => {
            const next = providers.find((candidate) => candidate.id === event.target.value)
            if (next) column.change({ providerId: next.id, model: column.configModel ?? next.defaultModel })
          }}
        >
          {providers.map((option) => {
            const team = teamName(option.teamId)
            return (
              <option key={option.id} value={option.id}>
                {team ? t('playground.providerOfTeam', { name: option.name, team }) : option.name}
              </option>
            )
          })}
        </Select>
      </Field>
      <Field label={t('playground.model')} error={serverErrors.model}>
        <Input
          list={modelListId}
          value={settings.model}
          autoComplete="off"
          spellCheck={false}
          placeholder={provider.defaultModel || undefined}
          onChange={(event) => column.change({ model: event.target.value })}
        />
      </Field>
      <datalist id={modelListId}>
        {provider.models.map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
      <Field
        label={t('playground.temperature')}
        hint={t('playground.temperatureHint')}
        error={fieldText(column.errors.temperature)}
      >
        <Input
          type="number"
          inputMode="decimal"
          step="0.1"
          min={0}
          max={2}
          value={settings.temperature}
          onChange={(event) => column.change({ temperature: event.target.value })}
        />
      </Field>
      <Field
        label={t('playground.maxTokens')}
        hint={t('playground.maxTokensHint')}
        error={fieldText(column.errors.maxTokens)}
      >
        <Input
          type="number"
          inputMode="numeric"
          step="1"
          min={1}
          value={settings.maxTokens}
          onChange={(event) => column.change({ maxTokens: event.target.value })}
        />
      </Field>
    </div>
  )
}

/**
 * The edited text (or messages) and config a column runs instead of the stored version, and "Save
 * as new version" with a commit message: the prompt's next version, made current as a save in the
 * editor would be. Viewers may edit and run; only editors may save (the button says why not).
 */
export function DraftEditor({
  column,
  type,
  promptId,
  current,
  canEdit,
}: {
  column: Column
  type: PromptType
  promptId: string
  current: PromptVersion
  canEdit: boolean
}) {
  const { t } = useTranslation('models')
  const noteId = useId()
  const save = useSavePrompt(promptId)
  const [changelog, setChangelog] = useState('')
  const [outcome, setOutcome] = useState<'saved' | 'savedNotCurrent' | 'unchanged' | null>(null)
  const { draft, version } = column
  if (!draft || !version) return null
  const runErrors = runFieldErrors(column.run.state)
  const saveErrors = save.error instanceof ApiError ? save.error.fields : {}
  const bodyError = fieldText(saveErrors.body ?? runErrors['draft.body'])
  const configError = fieldText(column.errors.config ?? saveErrors.config ?? runErrors['draft.config'])

  const onSave = () => {
    const config = column.draftConfig()
    if (!config) return
    setOutcome(null)
    // A save compares with the current version: the same text, config and variables add none.
    if (
      storedForm(type, draft.body) === current.body &&
      sameConfig(config, current.config) &&
      sameVariables(version.variables, current.variables)
    ) {
      setOutcome('unchanged')
      return
    }
    save.mutate(
      {
        body: draft.body,
        config,
        variables: version.variables,
        changelog: changelog.trim() || null,
        baseVersionId: current.id,
      },
      {
        // A team that protects 'production' keeps the current version until an admin moves it.
        onSuccess: (saved) =>
          setOutcome(saved.currentVersion?.id === current.id ? 'savedNotCurrent' : 'saved'),
      },
    )
  }

  return (
    <div className="space-y-3 rounded-lg border border-dashed p-3">
      {type === 'chat' ? (
        <ChatMessagesEditor
          value={draft.body}
          onChange={(body) => column.editDraft({ body })}
          error={bodyError}
        />
      ) : (
        <Field label={t('playground.text')} error={bodyError}>
          <Textarea
            rows={6}
            className="font-mono text-[13px]"
            value={draft.body}
            onChange={(event) => column.editDraft({ body: event.target.value })}
          />
        </Field>
      )}
      <Field label={t('playground.config')} hint={t('playground.configHint')} error={configError}>
        <Textarea
          rows={4}
          className="font-mono text-[13px]"
          spellCheck={false}
          value={draft.config}
          placeholder="{}"
          onChange={(event) => column.editDraft({ config: event.target.value })}
        />
      </Field>
      <Field label={t('playground.changelog')} error={fieldText(saveErrors.changelog)}>
        <Input
          value={changelog}
          maxLength={500}
          disabled={!canEdit}
          placeholder={t('playground.changelogPlaceholder')}
          onChange={(event) => setChangelog(event.target.value)}
        />
      </Field>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="outline"
          disabled={!canEdit || save.isPending}
          aria-describedby={canEdit ? undefined : noteId}
          onClick={onSave}
        >
          {save.isPending ? <Spinner label={t('playground.saving')} /> : <Save aria-hidden />}
          {t('playground.saveVersion')}
        </Button>
        <Button variant="ghost" onClick={() => column.editDraft(null)}>
          <Undo2 aria-hidden />
          {t('playground.discard')}
        </Button>
      </div>
      {!canEdit && (
        <p id={noteId} className="text-xs text-muted-foreground">
          {t('playground.saveNeedsEdit')}
        </p>
      )}
      <p role="status" className="text-xs text-muted-foreground empty:hidden">
        {outcome === 'saved'
          ? t('playground.saved')
          : outcome === 'savedNotCurrent'
            ? t('playground.savedNotCurrent')
            : outcome === 'unchanged'
              ? t('playground.unchanged')
              : ''}
      </p>
      {save.isError && <Alert tone="error" title={errorText(save.error, t('playground.saveFailed'))} />}
    </div>
  )
}

/**
 * One column of the playground: what it runs (version or label, provider, model, parameters, an
 * edited draft), Run (Stop while it streams) and the answer with its figures. When comparing, the
 * column is a region named "Column A" or "Column B".
 */
export function PlaygroundColumn({
  column,
  name,
  type,
  promptId,
  current,
  versions,
  providers,
  canEdit,
  runnable,
  problems,
  onRun,
  compare,
}: {
  column: Column
  /** "Column A" / "Column B" when comparing, else null. */
  name: string | null
  type: PromptType
  promptId: string
  current: PromptVersion
  versions: readonly Pick<VersionSummary, 'id' | 'versionNumber' | 'labels'>[]
  providers: readonly ModelProvider[]
  canEdit: boolean
  /** The shared values compile for this column's text. */
  runnable: boolean
  /** Why it does not, in words. */
  problems: string | null
  onRun: () => void
  compare: boolean
}) {
  const { t } = useTranslation('models')
  const answerId = useId()
  const headingId = useId()
  const running = column.run.state.status === 'running'
  let body: ReactNode
  if (!column.version)
    body = column.versionQuery.isError ? (
      <RetryAlert
        title={errorText(column.versionQuery.error, t('playground.versionFailed'))}
        onRetry={() => void column.versionQuery.refetch()}
      />
    ) : (
      <Spinner label={t('playground.loadingVersion')} />
    )
  else
    body = (
      <div className={compare ? 'space-y-4' : 'grid gap-6 md:grid-cols-2'}>
        <div className="min-w-0 space-y-4">
          <SettingsFields column={column} providers={providers} />
          {column.draft ? (
            <DraftEditor
              column={column}
              type={type}
              promptId={promptId}
              current={current}
              canEdit={canEdit}
            />
          ) : (
            <Button variant="outline" size="sm" onClick={() => column.editDraft({})}>
              <Pencil aria-hidden />
              {t('playground.edit')}
            </Button>
          )}
          {problems && <Alert tone="info" title={problems} />}
          <div className="flex flex-wrap items-center gap-3">
            {/* One button that turns into Stop, so the focus stays on it while the answer streams. */}
            <Button
              variant={running ? 'outline' : 'primary'}
              disabled={!running && !runnable}
              onClick={running ? column.run.stop : onRun}
            >
              {running ? <Square aria-hidden /> : <Play aria-hidden />}
              {running ? t('playground.stop') : t('playground.run')}
            </Button>
            {column.draft && <p className="text-xs text-muted-foreground">{t('playground.runsDraft')}</p>}
          </div>
        </div>
        <RunOutput state={column.run.state} answerId={answerId} />
      </div>
    )
  return name ? (
    <section aria-labelledby={headingId} className="min-w-0 space-y-4 rounded-lg border p-4">
      <h3 id={headingId} className="text-sm font-semibold">
        {name}
      </h3>
      <VersionPicker column={column} versions={versions} currentId={current.id} />
      {body}
    </section>
  ) : (
    <div className="space-y-4">
      <div className="max-w-xs">
        <VersionPicker column={column} versions={versions} currentId={current.id} />
      </div>
      {body}
    </div>
  )
}
