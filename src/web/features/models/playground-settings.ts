import { type ModelProvider, runDefaultsFromConfig, runParametersSchema } from '../../../domain/models.ts'
import {
  chatBodyProblem,
  type PromptType,
  parsePromptBody,
  serializePromptBody,
} from '../../../domain/prompt-names.ts'
import { configTextSchema, type PromptVersion, type VersionSummary } from '../../../domain/prompts.ts'

/**
 * The playground's rules that need no React: a column's settings (prefilled from a version's
 * config), the config an edited draft runs and is saved with, and what the version picker offers.
 */

/** A column's provider, model and parameters as the form holds them (text, blank: not given). */
export type Settings = { providerId: string; model: string; temperature: string; maxTokens: string }

/** The provider to start with: the first that lists the config's model, else the first. */
export function initialSettings(
  providers: readonly ModelProvider[],
  config: Record<string, unknown>,
): Settings {
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
export function parametersOf(settings: Settings) {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text))
  return runParametersSchema.safeParse({
    temperature: number(settings.temperature),
    maxTokens: number(settings.maxTokens),
  })
}

/** The keys a config may name max tokens by (`runDefaultsFromConfig` reads them in this order). */
const MAX_TOKENS_KEYS = ['max_tokens', 'maxTokens', 'max_output_tokens'] as const

/**
 * The config a draft runs and is saved with: the JSON typed in the editor, with the model,
 * temperature and max tokens of the form's fields written over it (a blank field removes the
 * setting), max tokens under the key the config already uses. Errors are the JSON's (message keys).
 */
export function draftConfigOf(
  configText: string,
  settings: Settings,
): { ok: true; config: Record<string, unknown> } | { ok: false; error: string } {
  const parsed = configTextSchema.safeParse(configText)
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'prompts.configInvalid' }
  const config: Record<string, unknown> = { ...parsed.data }
  const maxTokensKey = MAX_TOKENS_KEYS.find((key) => key in config) ?? 'max_tokens'
  const set = (key: string, value: string | number | undefined) => {
    if (value === undefined || value === '') delete config[key]
    else config[key] = value
  }
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text))
  set('model', settings.model.trim())
  set('temperature', number(settings.temperature))
  for (const key of MAX_TOKENS_KEYS) if (key !== maxTokensKey) delete config[key]
  set(maxTokensKey, number(settings.maxTokens))
  return { ok: true, config }
}

/**
 * What a column runs: a version by number, or a label (the version holding it). The picker's
 * value is `version:<id>` or `label:<name>`.
 */
export type Choice =
  | { kind: 'version'; versionId: string }
  | { kind: 'label'; label: string; versionId: string }

export function choiceValue(choice: Choice): string {
  return choice.kind === 'version' ? `version:${choice.versionId}` : `label:${choice.label}`
}

/** The choice a picker value names among the versions listed, or null when it names none of them. */
export function choiceOf(
  value: string,
  versions: readonly Pick<VersionSummary, 'id' | 'labels'>[],
): Choice | null {
  const [kind, ...rest] = value.split(':')
  const name = rest.join(':')
  if (kind === 'version') return versions.some((v) => v.id === name) ? { kind, versionId: name } : null
  const holder = versions.find((v) => v.labels.includes(name))
  return kind === 'label' && holder ? { kind, label: name, versionId: holder.id } : null
}

/** The labels the listed versions hold, each once, in the order they are listed. */
export function labelsOf(versions: readonly Pick<VersionSummary, 'labels'>[]): string[] {
  return [...new Set(versions.flatMap((version) => version.labels))]
}

/** The run input's `version` or `label` for a choice. */
export function selectorOf(choice: Choice, version: Pick<PromptVersion, 'versionNumber'>) {
  return choice.kind === 'label' ? { label: choice.label } : { version: version.versionNumber }
}

/**
 * A body as the server would store it: a chat prompt's entries as compact JSON (the editor's JSON
 * may differ in spacing or key order), else unchanged; a body that is no valid list stays as it is.
 * Saving compares stored forms, so "nothing changed" must too.
 */
export function storedForm(type: PromptType, body: string): string {
  if (type === 'text' || chatBodyProblem(body)) return body
  return serializePromptBody('chat', parsePromptBody('chat', body))
}
