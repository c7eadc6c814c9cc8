import type { ModelMessage } from 'ai'
import { eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { fillPlaceholders } from '../../../domain/mcp.ts'
import type { MessageKey } from '../../../domain/messages/index.ts'
import {
  RUN_RATE_LIMIT,
  RUN_TIMEOUT_MS,
  type RunResult,
  runDefaultsFromConfig,
  type runPromptInput,
} from '../../../domain/models.ts'
import type { CompiledPromptAnswer } from '../../../domain/prompt-variables.ts'
import type { Db } from '../../db/client.ts'
import { promptVersions } from '../../db/schema/index.ts'
import { consumeRateLimit } from '../../rate-limit.ts'
import { recordAudit } from '../audit/record.ts'
import { compileDraft, compileVersion } from '../prompts/compile.ts'
import { assertPublicBaseUrl } from './address-guard.ts'
import { streamAnswer } from './client.ts'
import { connectionOf, loadUsableProvider, type ModelDeps, type ProviderRow } from './service.ts'

/** A compiled prompt as the model's messages: text is one user message; chat roles map to the SDK's. */
export function toModelMessages(prompt: CompiledPromptAnswer['prompt']): ModelMessage[] {
  if (typeof prompt === 'string') return [{ role: 'user', content: prompt }]
  const messages: ModelMessage[] = []
  for (const entry of prompt) {
    // A placeholder left unfilled stands for no messages.
    if (!('role' in entry)) continue
    const role = entry.role.toLowerCase()
    if (role === 'system' || role === 'developer') messages.push({ role: 'system', content: entry.content })
    else if (role === 'assistant') messages.push({ role: 'assistant', content: entry.content })
    else messages.push({ role: 'user', content: entry.content })
  }
  return messages
}

async function limit(db: Db, key: string, max: number, message: MessageKey): Promise<void> {
  const result = await consumeRateLimit(db, key, { window: RUN_RATE_LIMIT.windowSeconds, max })
  if (result.allowed) return
  const retryAfter = result.retryAfter ?? RUN_RATE_LIMIT.windowSeconds
  throw new AppError('rate_limited', message, { retryAfter, params: { seconds: retryAfter } })
}

/** Runs are limited per user and per space of the provider whose key pays for them. */
async function enforceRunRates(deps: ModelDeps, actor: Actor, provider: ProviderRow): Promise<void> {
  const multiplier = deps.rateLimitMultiplier
  await limit(
    deps.db,
    `model-run:user:${actor.id}`,
    RUN_RATE_LIMIT.perUser * multiplier,
    'models.tooManyRuns',
  )
  const space = provider.teamId ? `team:${provider.teamId}` : `user:${provider.ownerUserId}`
  await limit(
    deps.db,
    `model-run:space:${space}`,
    RUN_RATE_LIMIT.perSpace * multiplier,
    'models.tooManySpaceRuns',
  )
}

export interface RunHooks {
  /** Cancels the upstream request (the caller went away or pressed Stop). */
  signal: AbortSignal
  /** Each piece of the answer as it comes. */
  onText: (text: string) => Promise<void>
}

async function versionConfig(db: Db, versionId: string): Promise<Record<string, unknown>> {
  const [version] = await db
    .select({ config: promptVersions.config })
    .from(promptVersions)
    .where(eq(promptVersions.id, versionId))
  return version?.config ?? {}
}

/**
 * Runs a version of a prompt the actor sees against a provider they may use: compiled as "Try it"
 * compiles it (or an edited draft instead, compiled as its saved version would be; its
 * placeholders filled with the given messages), the model and parameters from the input, else the
 * version's (or draft's) config, else the provider's default model. Every run that reached the
 * provider is audited (who, version, model, tokens, duration; never the key), a failed one with
 * its reason.
 */
export async function runPrompt(
  deps: ModelDeps,
  actor: Actor,
  promptId: string,
  input: z.output<typeof runPromptInput>,
  hooks: RunHooks,
): Promise<RunResult> {
  const provider = await loadUsableProvider(deps.db, actor, input.providerId)
  await enforceRunRates(deps, actor, provider)
  const { draft } = input
  const compiled = draft
    ? await compileDraft(deps.db, actor, promptId, { ...input, draft }, deps.rateLimitMultiplier)
    : await compileVersion(deps.db, actor, promptId, input, deps.rateLimitMultiplier)
  const defaults = runDefaultsFromConfig(
    draft ? draft.config : await versionConfig(deps.db, compiled.versionId),
  )
  const model = input.model ?? defaults.model ?? (provider.defaultModel || undefined)
  if (!model)
    throw new AppError('validation', 'models.modelRequired', { fields: { model: 'models.modelRequired' } })
  const parameters = {
    temperature: input.parameters.temperature ?? defaults.temperature,
    maxTokens: input.parameters.maxTokens ?? defaults.maxTokens,
    topP: input.parameters.topP ?? defaults.topP,
  }
  await assertPublicBaseUrl(provider.baseUrl, deps.allowPrivate)
  const connection = connectionOf(deps, provider)
  const audit = (after: Record<string, unknown>) =>
    recordAudit(deps.db, actor, {
      action: 'prompt.run',
      objectType: 'prompt',
      objectId: compiled.promptId,
      teamId: provider.teamId,
      after: {
        versionId: compiled.versionId,
        versionNumber: compiled.versionNumber,
        draft: Boolean(draft),
        providerId: provider.id,
        providerKind: provider.kind,
        model,
        ...after,
      },
    })
  try {
    const answer = await streamAnswer({
      connection,
      model,
      messages: toModelMessages(fillPlaceholders(compiled.prompt, input.placeholders, false)),
      parameters,
      signal: hooks.signal,
      timeoutMs: RUN_TIMEOUT_MS,
      onText: hooks.onText,
    })
    await audit({
      finishReason: answer.finishReason,
      inputTokens: answer.inputTokens,
      outputTokens: answer.outputTokens,
      durationMs: answer.durationMs,
      timeToFirstTokenMs: answer.timeToFirstTokenMs,
    })
    return {
      promptId: compiled.promptId,
      versionId: compiled.versionId,
      versionNumber: compiled.versionNumber,
      draft: Boolean(draft),
      providerId: provider.id,
      model,
      text: answer.text,
      finishReason: answer.finishReason,
      usage: { inputTokens: answer.inputTokens, outputTokens: answer.outputTokens },
      timeToFirstTokenMs: answer.timeToFirstTokenMs,
      durationMs: answer.durationMs,
    }
  } catch (error) {
    if (error instanceof AppError) await audit({ error: error.options.reason ?? error.code })
    throw error
  }
}
