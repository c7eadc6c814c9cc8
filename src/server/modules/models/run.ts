import type { ModelMessage } from 'ai'
import { eq, type SQL, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { z } from 'zod'
import type { AuditEntryInput } from '../../../domain/audit.ts'
import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { fillPlaceholders } from '../../../domain/mcp.ts'
import type { MessageKey } from '../../../domain/messages/index.ts'
import {
  RUN_RATE_LIMIT,
  RUN_TIMEOUT_MS,
  type RunParameters,
  type RunResult,
  runDefaultsFromConfig,
  type runPromptInput,
} from '../../../domain/models.ts'
import { subjectKeyOf, subjectOf } from '../../../domain/plans.ts'
import type { CompiledPromptAnswer } from '../../../domain/prompt-variables.ts'
import { recordAudit } from '../../core/audit.ts'
import type { Db } from '../../db/client.ts'
import {
  conversations,
  modelProviders,
  modelRuns,
  prompts,
  promptVersions,
  teams,
  users,
} from '../../db/schema/index.ts'
import { consumeRateLimit } from '../../rate-limit.ts'
import { compileDraft, compileVersion } from '../prompts/index.ts'
import { assertPublicBaseUrl } from './address-guard.ts'
import { type StreamedAnswer, streamAnswer } from './client.ts'
import { connectionOf, loadUsableProvider, type ModelDeps, type ProviderRow } from './service.ts'

/** A compiled prompt as the model's messages: text is one user message; chat roles map to the SDK's. */
export function toModelMessages(prompt: CompiledPromptAnswer['prompt']): ModelMessage[] {
  if (typeof prompt === 'string') return [{ role: 'user', content: prompt }]
  const messages: ModelMessage[] = []
  for (const entry of prompt) {
    // A placeholder left unfilled stands for no messages.
    if (!('role' in entry)) continue
    messages.push(modelMessage(entry.role, entry.content))
  }
  return messages
}

/** One message in the SDK's roles: system (and developer), assistant, else user. */
export function modelMessage(role: string, content: string): ModelMessage {
  const lower = role.toLowerCase()
  if (lower === 'system' || lower === 'developer') return { role: 'system', content }
  if (lower === 'assistant') return { role: 'assistant', content }
  return { role: 'user', content }
}

async function limit(db: Db, key: string, max: number, message: MessageKey): Promise<void> {
  const result = await consumeRateLimit(db, key, { window: RUN_RATE_LIMIT.windowSeconds, max })
  if (result.allowed) return
  const retryAfter = result.retryAfter ?? RUN_RATE_LIMIT.windowSeconds
  throw new AppError('rate_limited', message, { retryAfter, params: { seconds: retryAfter } })
}

/** Runs are limited per user and per space of the provider whose key pays for them. */
export async function enforceRunRates(deps: ModelDeps, actor: Actor, provider: ProviderRow): Promise<void> {
  const multiplier = deps.rateLimitMultiplier
  await limit(
    deps.db,
    `model-run:user:${actor.id}`,
    RUN_RATE_LIMIT.perUser * multiplier,
    'models.tooManyRuns',
  )
  const space = subjectKeyOf(subjectOf(provider.ownerUserId!, provider.teamId))
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

/** The model and parameters of a run: what the caller chose, else the config's, else the provider's. */
export function runSettings(
  provider: ProviderRow,
  chosen: { model?: string; parameters: RunParameters },
  config: Record<string, unknown>,
): { model: string; parameters: RunParameters } {
  const defaults = runDefaultsFromConfig(config)
  const model = chosen.model ?? defaults.model ?? (provider.defaultModel || undefined)
  if (!model)
    throw new AppError('validation', 'models.modelRequired', { fields: { model: 'models.modelRequired' } })
  return {
    model,
    parameters: {
      temperature: chosen.parameters.temperature ?? defaults.temperature,
      maxTokens: chosen.parameters.maxTokens ?? defaults.maxTokens,
      topP: chosen.parameters.topP ?? defaults.topP,
    },
  }
}

/** The id, if its row still exists, else null (a foreign key that cannot fail). */
function stillThere(table: PgTable & { id: unknown }, id: string): SQL {
  return sql`(SELECT ${table.id} FROM ${table} WHERE ${table.id} = ${id})`
}

/** What one call of a model is for: the run's record and its audit entry. */
export interface ModelCall {
  provider: ProviderRow
  model: string
  parameters: RunParameters
  messages: ModelMessage[]
  kind: 'prompt' | 'reply'
  promptId?: string
  conversationId?: string
  /** The audit entry, without the outcome (added here). */
  audit: Pick<AuditEntryInput, 'action' | 'objectType' | 'objectId'> & { after: Record<string, unknown> }
}

/**
 * The one way a model is called on a user's behalf: the run limits, the address guard, the
 * streamed answer, then a run record (for the dashboards' usage) and an audit entry (who, what,
 * model, tokens, duration; never the key), also when the provider failed.
 */
export async function callModel(
  deps: ModelDeps,
  actor: Actor,
  call: ModelCall,
  hooks: RunHooks,
): Promise<StreamedAnswer> {
  const { provider } = call
  await assertPublicBaseUrl(provider.baseUrl, deps.allowPrivate)
  const started = performance.now()
  const record = async (outcome: string, answer?: StreamedAnswer) => {
    await recordAudit(deps.db, actor, {
      ...call.audit,
      teamId: provider.teamId,
      after: {
        ...call.audit.after,
        providerId: provider.id,
        providerKind: provider.kind,
        model: call.model,
        ...(answer
          ? {
              finishReason: answer.finishReason,
              inputTokens: answer.inputTokens,
              outputTokens: answer.outputTokens,
              durationMs: answer.durationMs,
              timeToFirstTokenMs: answer.timeToFirstTokenMs,
            }
          : { error: outcome }),
      },
    })
    // Whatever was deleted while the model answered (the prompt, the conversation, the provider,
    // the team, the account) is recorded as gone: the run happened and its tokens were spent.
    await deps.db.insert(modelRuns).values({
      userId: stillThere(users, actor.id),
      teamId: provider.teamId === null ? null : stillThere(teams, provider.teamId),
      providerId: stillThere(modelProviders, provider.id),
      kind: call.kind,
      promptId: call.promptId === undefined ? null : stillThere(prompts, call.promptId),
      conversationId:
        call.conversationId === undefined ? null : stillThere(conversations, call.conversationId),
      model: call.model,
      outcome,
      inputTokens: answer?.inputTokens,
      outputTokens: answer?.outputTokens,
      durationMs: answer?.durationMs ?? Math.round(performance.now() - started),
    })
  }
  try {
    const answer = await streamAnswer({
      connection: connectionOf(deps, provider),
      model: call.model,
      messages: call.messages,
      parameters: call.parameters,
      signal: hooks.signal,
      timeoutMs: RUN_TIMEOUT_MS,
      onText: hooks.onText,
    })
    await record(answer.finishReason === 'cancelled' ? 'cancelled' : 'ok', answer)
    return answer
  } catch (error) {
    if (error instanceof AppError) await record(error.options.reason ?? error.code)
    throw error
  }
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
 * version's (or draft's) config, else the provider's default model.
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
  const config = draft ? draft.config : await versionConfig(deps.db, compiled.versionId)
  const { model, parameters } = runSettings(provider, input, config)
  const answer = await callModel(
    deps,
    actor,
    {
      provider,
      model,
      parameters,
      messages: toModelMessages(fillPlaceholders(compiled.prompt, input.placeholders, false)),
      kind: 'prompt',
      promptId: compiled.promptId,
      audit: {
        action: 'prompt.run',
        objectType: 'prompt',
        objectId: compiled.promptId,
        after: {
          versionId: compiled.versionId,
          versionNumber: compiled.versionNumber,
          draft: Boolean(draft),
        },
      },
    },
    hooks,
  )
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
}
