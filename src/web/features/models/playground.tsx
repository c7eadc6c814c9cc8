import { Play, Sparkles, Square } from 'lucide-react'
import { type ReactNode, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import {
  type ModelProvider,
  type RunParameters,
  runDefaultsFromConfig,
  runParametersSchema,
} from '../../../domain/models.ts'
import type { PromptType } from '../../../domain/prompt-names.ts'
import { compilePrompt } from '../../../domain/prompt-variables.ts'
import type { PromptVersion } from '../../../domain/prompts.ts'
import { Alert, RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select } from '../../components/ui/input.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { errorText } from '../../lib/api.ts'
import { fieldText } from '../../lib/forms.ts'
import {
  compileValuesOf,
  useProblemText,
  usePromptVersion,
  usePromptVersions,
  VariableFields,
  variableFieldsOf,
} from '../prompts/index.ts'
import { useMyTeams } from '../teams/index.ts'
import { useUsableProviders } from './queries.ts'
import { RunOutput } from './run-output.tsx'
import { runFieldErrors, useRun } from './use-run.ts'

type Settings = { providerId: string; model: string; temperature: string; maxTokens: string }

/** The provider to start with: the first that lists the config's model, else the first. */
function initialSettings(providers: ModelProvider[], config: Record<string, unknown>): Settings {
  const defaults = runDefaultsFromConfig(config)
  const provider =
    providers.find((candidate) => defaults.model && candidate.models.includes(defaults.model)) ??
    providers[0]!
  return {
    providerId: provider.id,
    model: defaults.model ?? provider.defaultModel,
    temperature: defaults.temperature === undefined ? '' : String(defaults.temperature),
    maxTokens: defaults.maxTokens === undefined ? '' : String(defaults.maxTokens),
  }
}

/** The parameters as the run takes them (blank: the version's config decides), or their errors. */
function parametersOf(settings: Settings) {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text))
  return runParametersSchema.safeParse({
    temperature: number(settings.temperature),
    maxTokens: number(settings.maxTokens),
  })
}

/**
 * The form of one version: provider, model, temperature and max tokens (prefilled from the
 * version's config and the provider's default model), the variables as "Try it" takes them, and
 * Run, which turns into Stop while the answer streams in.
 */
function PlaygroundForm({
  promptId,
  type,
  version,
  providers,
}: {
  promptId: string
  type: PromptType
  version: PromptVersion
  providers: ModelProvider[]
}) {
  const { t } = useTranslation('models')
  const teams = useMyTeams()
  const modelListId = useId()
  const answerId = useId()
  const [settings, setSettings] = useState(() => initialSettings(providers, version.config))
  const [parameterErrors, setParameterErrors] = useState<Partial<Record<keyof RunParameters, string>>>({})
  const [values, setValues] = useState<Record<string, string>>({})
  const { state, start, stop } = useRun(promptId)
  const fields = useMemo(() => variableFieldsOf(type, version.body, version.variables), [type, version])
  const compiled = useMemo(
    () => compilePrompt(type, version.body, version.variables, compileValuesOf(fields, values)),
    [type, version, fields, values],
  )
  const problemText = useProblemText(fields)
  const provider = providers.find((candidate) => candidate.id === settings.providerId) ?? providers[0]!
  const serverErrors = runFieldErrors(state)
  const running = state.status === 'running'
  const teamName = (teamId: string | null) => teams.data?.find((team) => team.id === teamId)?.name
  const change = (next: Partial<Settings>) => setSettings((current) => ({ ...current, ...next }))

  const run = () => {
    const parameters = parametersOf(settings)
    if (!parameters.success) {
      setParameterErrors(
        Object.fromEntries(parameters.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
      )
      return
    }
    setParameterErrors({})
    void start({
      providerId: provider.id,
      model: settings.model.trim() || undefined,
      parameters: parameters.data,
      values: compileValuesOf(fields, values),
      version: version.versionNumber,
    })
  }

  return (
    <div className="grid gap-6 md:grid-cols-2">
      <div className="min-w-0 space-y-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label={t('playground.provider')} error={serverErrors.providerId}>
            <Select
              value={provider.id}
              onChange={(event) => {
                const next = providers.find((candidate) => candidate.id === event.target.value)
                const configModel = runDefaultsFromConfig(version.config).model
                if (next) change({ providerId: next.id, model: configModel ?? next.defaultModel })
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
              onChange={(event) => change({ model: event.target.value })}
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
            error={fieldText(parameterErrors.temperature)}
          >
            <Input
              type="number"
              inputMode="decimal"
              step="0.1"
              min={0}
              max={2}
              value={settings.temperature}
              onChange={(event) => change({ temperature: event.target.value })}
            />
          </Field>
          <Field
            label={t('playground.maxTokens')}
            hint={t('playground.maxTokensHint')}
            error={fieldText(parameterErrors.maxTokens)}
          >
            <Input
              type="number"
              inputMode="numeric"
              step="1"
              min={1}
              value={settings.maxTokens}
              onChange={(event) => change({ maxTokens: event.target.value })}
            />
          </Field>
        </div>
        {fields.length > 0 && (
          <VariableFields
            fields={fields}
            values={values}
            onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
            problems={compiled.ok ? [] : compiled.problems}
            label={t('playground.variables')}
          />
        )}
        {!compiled.ok && 'problems' in compiled && (
          <Alert tone="info" title={compiled.problems.map(problemText).join(' · ')} />
        )}
        <div className="flex flex-wrap items-center gap-3">
          {/* One button that turns into Stop, so the focus stays on it while the answer streams. */}
          <Button
            variant={running ? 'outline' : 'primary'}
            disabled={!running && !compiled.ok}
            onClick={running ? stop : run}
          >
            {running ? <Square aria-hidden /> : <Play aria-hidden />}
            {running ? t('playground.stop') : t('playground.run')}
          </Button>
          <p className="text-xs text-muted-foreground">{t('playground.through')}</p>
        </div>
      </div>
      <RunOutput state={state} answerId={answerId} />
    </div>
  )
}

/** The version to run: the current one, or one chosen from the history. */
function useChosenVersion(promptId: string, current: PromptVersion) {
  const [versionId, setVersionId] = useState(current.id)
  const other = usePromptVersion(promptId, versionId === current.id ? null : versionId)
  const version = versionId === current.id ? current : other.data
  return { versionId, setVersionId, version, other }
}

/**
 * The prompt page's playground: a version of the prompt run against a model of a provider the user
 * may use (Settings → Models), the answer streamed in through our server.
 */
export function PlaygroundCard({
  promptId,
  type,
  current,
}: {
  promptId: string
  type: PromptType
  current: PromptVersion
}) {
  const { t } = useTranslation('models')
  const headingId = useId()
  const providers = useUsableProviders()
  const versions = usePromptVersions(promptId)
  const { versionId, setVersionId, version, other } = useChosenVersion(promptId, current)
  const summaries = versions.data?.pages.flatMap((page) => page.items) ?? []
  const choices = summaries.some((summary) => summary.id === current.id) ? summaries : [current, ...summaries]

  let content: ReactNode
  if (providers.isPending) content = <Spinner label={t('playground.loadingProviders')} />
  else if (providers.isError)
    content = (
      <RetryAlert
        title={errorText(providers.error, t('playground.providersFailed'))}
        onRetry={() => void providers.refetch()}
      />
    )
  else if (providers.data.length === 0)
    content = (
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">{t('playground.noProviders')}</p>
        <Button asChild variant="outline">
          <Link to="/settings/models">{t('playground.addProvider')}</Link>
        </Button>
      </div>
    )
  else
    content = (
      <div className="space-y-4">
        <Field label={t('playground.version')} className="max-w-xs">
          <Select value={versionId} onChange={(event) => setVersionId(event.target.value)}>
            {choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.id === current.id
                  ? t('playground.currentVersion', { number: choice.versionNumber })
                  : t('playground.versionNumber', { number: choice.versionNumber })}
              </option>
            ))}
          </Select>
        </Field>
        {version ? (
          <PlaygroundForm
            key={version.id}
            promptId={promptId}
            type={type}
            version={version}
            providers={providers.data}
          />
        ) : other.isError ? (
          <RetryAlert
            title={errorText(other.error, t('playground.versionFailed'))}
            onRetry={() => void other.refetch()}
          />
        ) : (
          <Spinner label={t('playground.loadingVersion')} />
        )}
      </div>
    )

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader className="space-y-1">
        <CardTitle id={headingId} className="flex items-center gap-2">
          <Sparkles aria-hidden className="size-4 text-muted-foreground" />
          {t('playground.title')}
        </CardTitle>
        <p className="text-sm text-muted-foreground">{t('playground.description')}</p>
      </CardHeader>
      <CardContent>{content}</CardContent>
    </Card>
  )
}
