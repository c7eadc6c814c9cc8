import { useState } from 'react'
import {
  type ModelProvider,
  type PlaceholderValues,
  type RunParameters,
  runDefaultsFromConfig,
} from '../../../domain/models.ts'
import { configText, type PromptVersion } from '../../../domain/prompts.ts'
import { usePromptVersion } from '../prompts/index.ts'
import {
  type Choice,
  draftConfigOf,
  initialSettings,
  parametersOf,
  type Settings,
  selectorOf,
} from './playground-settings.ts'
import { useRun } from './use-run.ts'

/** The text and config (JSON) being edited in a column; null while it runs the stored version. */
export type Draft = { body: string; config: string }

type Edits = { settings: Settings | null; draft: Draft | null }

export type FieldErrors = Partial<Record<keyof RunParameters | 'config', string>>

/**
 * One column of the playground: which version (or label) it runs, its provider, model and
 * parameters (prefilled from the version's config until changed), an edited draft of the text and
 * config, and its own run. The playground has two (A and B); the second shows when comparing.
 */
export function useColumn(promptId: string, providers: readonly ModelProvider[], current: PromptVersion) {
  const [choice, setChoice] = useState<Choice>({ kind: 'version', versionId: current.id })
  const other = usePromptVersion(promptId, choice.versionId === current.id ? null : choice.versionId)
  const version = choice.versionId === current.id ? current : other.data
  const [edits, setEdits] = useState<Edits>({ settings: null, draft: null })
  const [errors, setErrors] = useState<FieldErrors>({})
  const run = useRun(promptId)
  const settings = edits.settings ?? (version ? initialSettings(providers, version.config) : null)
  const provider = providers.find((candidate) => candidate.id === settings?.providerId) ?? providers[0]!

  const choose = (next: Choice) => {
    setChoice(next)
    // Another version brings its own config and text: the form starts again from them.
    setEdits({ settings: null, draft: null })
    setErrors({})
  }
  const change = (next: Partial<Settings>) =>
    setEdits((current) => (settings ? { ...current, settings: { ...settings, ...next } } : current))
  const editDraft = (next: Partial<Draft> | null) => {
    // A config being retyped is checked again when it runs or is saved.
    if (next?.config !== undefined) setErrors(({ config: _, ...others }) => others)
    setEdits((current) => {
      if (next === null || !version) return { ...current, draft: null }
      const base = current.draft ?? { body: version.body, config: configText(version.config) }
      return { ...current, draft: { ...base, ...next } }
    })
  }

  /** The config the draft runs and is saved with, or null (its error shown) when it is not valid. */
  const draftConfig = () => {
    if (!edits.draft || !settings) return null
    const config = draftConfigOf(edits.draft.config, settings)
    if (!config.ok) {
      setErrors({ config: config.error })
      return null
    }
    return config.config
  }

  /** Starts the run with the shared values; false when a field of the column is not valid. */
  const start = (values: Record<string, unknown>, placeholders: PlaceholderValues): boolean => {
    if (!version || !settings) return false
    const parameters = parametersOf(settings)
    if (!parameters.success) {
      setErrors(
        Object.fromEntries(parameters.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
      )
      return false
    }
    const config = edits.draft ? draftConfig() : null
    if (edits.draft && !config) return false
    setErrors({})
    void run.start({
      providerId: provider.id,
      model: settings.model.trim() || undefined,
      parameters: parameters.data,
      values,
      placeholders,
      ...selectorOf(choice, version),
      ...(edits.draft &&
        config && {
          draft: { body: edits.draft.body, config, variables: version.variables },
        }),
    })
    return true
  }

  return {
    choice,
    choose,
    version,
    versionQuery: other,
    settings,
    provider,
    /** The model the version's config names: what a newly chosen provider starts with. */
    configModel: version ? runDefaultsFromConfig(version.config).model : undefined,
    change,
    draft: edits.draft,
    editDraft,
    draftConfig,
    errors,
    /** The text the column runs: the draft's, else the version's. */
    body: edits.draft?.body ?? version?.body ?? '',
    run,
    start,
  }
}

export type Column = ReturnType<typeof useColumn>
