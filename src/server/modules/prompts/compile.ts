import { and, desc, eq, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { placeholderNamesOf } from '../../../domain/mcp.ts'
import type { ExpandedVariables } from '../../../domain/models.ts'
import { LATEST_LABEL, PRODUCTION_LABEL, parsePromptBody } from '../../../domain/prompt-names.ts'
import type { ResolvedVersion } from '../../../domain/prompt-references.ts'
import {
  type CompiledPromptAnswer,
  compilePrompt,
  type compilePromptInput,
  renderLimitKey,
  type VariableDeclaration,
  valueProblemKey,
  variablesOfBody,
} from '../../../domain/prompt-variables.ts'
import { spaceOf } from '../../../domain/spaces.ts'
import type { Db, Tx } from '../../db/client.ts'
import { promptLabels, promptVersions } from '../../db/schema/index.ts'
import { findVisiblePrompt, type PromptRow, promptNotFound } from './access.ts'
import { enforceCompileRate } from './compile-rate.ts'
import { resolveInSpace } from './references.ts'
import { storedBody } from './service.ts'

const versionNotFound = () => new AppError('not_found', 'prompts.versionNotFound')

/** Which version a compile uses: by number, by label, else the current one. */
function versionCondition(prompt: PromptRow, input: { version?: number; label?: string }): SQL | undefined {
  if (input.version !== undefined) return eq(promptVersions.versionNumber, input.version)
  const label = input.label ?? PRODUCTION_LABEL
  if (label === PRODUCTION_LABEL) {
    return prompt.currentVersionId ? eq(promptVersions.id, prompt.currentVersionId) : undefined
  }
  return undefined // 'latest': the highest version
}

/** The version a compile uses (`versionCondition`), with what compile needs of it; undefined when none. */
export async function findCompileVersion(
  db: Db | Tx,
  prompt: PromptRow,
  input: { version?: number; label?: string },
) {
  const columns = {
    id: promptVersions.id,
    versionNumber: promptVersions.versionNumber,
    body: promptVersions.body,
    variables: promptVersions.variables,
  }
  const label = input.label
  if (input.version === undefined && label && label !== PRODUCTION_LABEL && label !== LATEST_LABEL) {
    const [row] = await db
      .select(columns)
      .from(promptLabels)
      .innerJoin(promptVersions, eq(promptVersions.id, promptLabels.versionId))
      .where(and(eq(promptLabels.promptId, prompt.id), eq(promptLabels.label, label)))
    return row
  }
  if (input.version === undefined && label !== LATEST_LABEL && !prompt.currentVersionId) return undefined
  const [row] = await db
    .select(columns)
    .from(promptVersions)
    .where(and(eq(promptVersions.promptId, prompt.id), versionCondition(prompt, input)))
    .orderBy(desc(promptVersions.versionNumber))
    .limit(1)
  return row
}

/** A version's body with its references replaced (decision 0175): what compile and "Try it" fill in. */
async function resolvedBody(
  db: Db | Tx,
  prompt: PromptRow,
  version: { id: string; versionNumber: number; body: string },
) {
  return resolveInSpace(db, spaceOf(prompt), {
    id: version.id,
    name: prompt.name,
    version: version.versionNumber,
    type: prompt.type,
    body: version.body,
  })
}

/** `GET /v1/prompts/:id/versions/:versionId/resolved`: the body "Try it" compiles. */
export async function getResolvedVersion(
  db: Db,
  actor: Actor,
  promptId: string,
  versionId: string,
  /** Where the version and what it references are read (a replica may serve them); access is asked of `db`. */
  reads: Db = db,
): Promise<ResolvedVersion> {
  const prompt = await findVisiblePrompt(db, actor, promptId)
  if (!prompt) throw promptNotFound()
  const [version] = await reads
    .select({ id: promptVersions.id, versionNumber: promptVersions.versionNumber, body: promptVersions.body })
    .from(promptVersions)
    .where(and(eq(promptVersions.id, versionId), eq(promptVersions.promptId, prompt.id)))
  if (!version) throw versionNotFound()
  const resolved = await resolvedBody(reads, prompt, version)
  return {
    versionId: version.id,
    versionNumber: version.versionNumber,
    body: resolved.text,
    resolutionGraph: resolved.graph,
  }
}

/**
 * Compile: a version of a prompt the caller sees, its references resolved (a broken one is a 400
 * naming it) and its variables filled in. The first value
 * problem is the 400's message (naming the variable); all of them are in its fields. Rate limited
 * per user and key; a render past its limits (`RENDER_LIMITS`) is a 400 saying which.
 */
export async function compileVersion(
  db: Db,
  actor: Actor,
  promptId: string,
  input: z.output<typeof compilePromptInput>,
  rateLimitMultiplier: number,
): Promise<CompiledPromptAnswer> {
  await enforceCompileRate(db, actor, rateLimitMultiplier)
  const prompt = await findVisiblePrompt(db, actor, promptId)
  if (!prompt) throw promptNotFound()
  return compileFoundPrompt(db, prompt, input)
}

/**
 * Compile of a prompt the caller has already found (and may see): the version by number, label or
 * production, its references resolved, its variables filled in.
 */
export async function compileFoundPrompt(
  db: Db,
  prompt: PromptRow,
  input: { version?: number; label?: string; values: Record<string, unknown> },
): Promise<CompiledPromptAnswer> {
  const version = await findCompileVersion(db, prompt, input)
  if (!version) throw versionNotFound()
  return compileFoundVersion(db, prompt, version, input.values)
}

/**
 * One found version compiled: its references resolved, then its variables filled in. The app's
 * compile and the MCP server's both end here, so they answer alike.
 */
export async function compileFoundVersion(
  db: Db,
  prompt: PromptRow,
  version: NonNullable<Awaited<ReturnType<typeof findCompileVersion>>>,
  values: Record<string, unknown>,
): Promise<CompiledPromptAnswer> {
  // References first (as the Langfuse fetch resolves them), then the variables of the whole text.
  const { text } = await resolvedBody(db, prompt, version)
  const result = compilePrompt(prompt.type, text, version.variables, values)
  if (!result.ok) {
    if ('limit' in result) throw new AppError('validation', renderLimitKey(result.limit))
    const [first] = result.problems
    if (!first) throw new AppError('validation', 'prompts.templateInvalid')
    throw new AppError('validation', valueProblemKey(first.problem), {
      params: { name: first.name },
      fields: Object.fromEntries(
        result.problems.map((problem) => [`values.${problem.name}`, valueProblemKey(problem.problem)]),
      ),
    })
  }
  return {
    promptId: prompt.id,
    versionId: version.id,
    versionNumber: version.versionNumber,
    type: prompt.type,
    prompt: result.prompt,
  }
}

/**
 * A prompt attached to a conversation message, as context for a generated reply: the attached
 * version (or, attached as "latest", the current one), its references resolved and its variables
 * filled with their defaults; a variable without one stays as written (`{{name}}`), since nobody
 * gave it a value. Undefined when the actor may no longer see the prompt, it has no version, or
 * it renders past the limits.
 */
export async function compileAsContext(
  db: Db,
  actor: Actor,
  promptId: string,
  versionId: string | null,
): Promise<CompiledPromptAnswer['prompt'] | undefined> {
  const prompt = await findVisiblePrompt(db, actor, promptId)
  if (!prompt) return undefined
  const [version] = versionId
    ? await db
        .select({
          id: promptVersions.id,
          versionNumber: promptVersions.versionNumber,
          body: promptVersions.body,
          variables: promptVersions.variables,
        })
        .from(promptVersions)
        .where(and(eq(promptVersions.id, versionId), eq(promptVersions.promptId, prompt.id)))
    : [await findCompileVersion(db, prompt, {})]
  if (!version) return undefined
  const { text } = await resolvedBody(db, prompt, version)
  const values: Record<string, unknown> = {}
  for (const name of variablesOfBody(prompt.type, text)) values[name] = `{{${name}}}`
  for (const declaration of version.variables) {
    if (declaration.default !== undefined && declaration.default !== null) {
      values[declaration.name] = declaration.default
    }
  }
  // Undeclared: the defaults were put in above, and no value is checked against a type.
  const result = compilePrompt(prompt.type, text, [], values)
  if (result.ok) return result.prompt
  // Past the render limits: left out, like a prompt the actor can no longer see (one attachment
  // must not stop every reply). A template that does not parse is sent as written.
  if ('limit' in result) return undefined
  return prompt.type === 'text' ? text : undefined
}

/** A draft's id in a resolution: no stored version has it, so nothing resolved is mistaken for it. */
const DRAFT_ID = 'draft'

/**
 * What a draft (or a version's variables) starts from: a compile's rate, a prompt the caller sees
 * (else 404), and its version by number, label or current (else 404).
 */
async function findBase(
  db: Db,
  actor: Actor,
  promptId: string,
  input: { version?: number; label?: string },
  rateLimitMultiplier: number,
) {
  await enforceCompileRate(db, actor, rateLimitMultiplier)
  const prompt = await findVisiblePrompt(db, actor, promptId)
  if (!prompt) throw promptNotFound()
  const base = await findCompileVersion(db, prompt, input)
  if (!base) throw versionNotFound()
  return { prompt, base }
}

/**
 * An edited draft of a prompt the caller sees (the playground's), compiled as its version would be
 * once saved: a chat body must be valid entries (a 400 on `draft.body`), its references resolve in
 * the prompt's space with the same bounds, its values fill the draft's declarations. The answer
 * names `base`, the version the draft started from (by number, label or current).
 */
export async function compileDraft(
  db: Db,
  actor: Actor,
  promptId: string,
  input: z.output<typeof compilePromptInput> & { draft: { body: string; variables: VariableDeclaration[] } },
  rateLimitMultiplier: number,
): Promise<CompiledPromptAnswer> {
  const { prompt, base } = await findBase(db, actor, promptId, input, rateLimitMultiplier)
  const body = storedBody(prompt.type, input.draft.body, 'draft.body')
  const compiled = await compileFoundVersion(
    db,
    prompt,
    { id: DRAFT_ID, versionNumber: base.versionNumber, body, variables: input.draft.variables },
    input.values,
  )
  return { ...compiled, versionId: base.id }
}

/**
 * The variables and placeholders of a version's body (or a draft's) once its references are
 * expanded: the form's fields for what only included prompts use. Counted as a compile (it reads
 * every included prompt).
 */
export async function expandedVariables(
  db: Db,
  actor: Actor,
  promptId: string,
  input: { version?: number; label?: string; body?: string },
  rateLimitMultiplier: number,
): Promise<ExpandedVariables> {
  const { prompt, base } = await findBase(db, actor, promptId, input, rateLimitMultiplier)
  const root =
    input.body === undefined
      ? base
      : { id: DRAFT_ID, versionNumber: base.versionNumber, body: storedBody(prompt.type, input.body) }
  const { text } = await resolvedBody(db, prompt, root)
  return {
    variables: variablesOfBody(prompt.type, text),
    placeholders: placeholderNamesOf(prompt.type, parsePromptBody(prompt.type, text)),
  }
}
