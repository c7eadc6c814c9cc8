import { and, asc, eq, exists, inArray, ne, sql } from 'drizzle-orm'
import { AppError } from '../../../domain/errors.ts'
import type { MessageKey, MessageParams } from '../../../domain/messages/index.ts'
import { LATEST_LABEL, PRODUCTION_LABEL, type PromptType } from '../../../domain/prompt-names.ts'
import {
  MAX_REFERENCE_DEPTH,
  MAX_REFERENCE_TAGS,
  MAX_RESOLVED_LENGTH,
  MAX_RESOLVED_REFERENCES,
  type PromptReference,
  PromptReferenceError,
  parseReferences,
  type ReferencedVersion,
  type ReferenceProblem,
  resolveReferences,
} from '../../../domain/prompt-references.ts'
import type { Space } from '../../../domain/spaces.ts'
import type { Db, Tx } from '../../db/client.ts'
import { promptDependencies, promptLabels, prompts, promptVersions } from '../../db/schema/index.ts'
import { inSpace } from './names.ts'

/**
 * References between prompts on the server (decision 0175): loading a referenced version
 * in a space, the check on save, and the prompts that include a given one ("Used by").
 */

/** The version a reference names in `space`: by number, or by label (production, latest, stored). */
export async function loadReference(
  db: Db | Tx,
  space: Space,
  reference: PromptReference,
): Promise<ReferencedVersion | null> {
  const which =
    reference.kind === 'version'
      ? eq(promptVersions.versionNumber, reference.version)
      : reference.label === PRODUCTION_LABEL
        ? eq(promptVersions.id, prompts.currentVersionId)
        : reference.label === LATEST_LABEL
          ? sql`${promptVersions.versionNumber} = (SELECT max(m.version_number) FROM prompt_versions m WHERE m.prompt_id = ${prompts.id})`
          : exists(
              db
                .select({ one: sql`1` })
                .from(promptLabels)
                .where(
                  and(
                    eq(promptLabels.promptId, prompts.id),
                    eq(promptLabels.label, reference.label),
                    eq(promptLabels.versionId, promptVersions.id),
                  ),
                ),
            )
  const [row] = await db
    .select({
      id: promptVersions.id,
      name: prompts.name,
      version: promptVersions.versionNumber,
      type: prompts.type,
      body: promptVersions.body,
    })
    .from(prompts)
    .innerJoin(promptVersions, eq(promptVersions.promptId, prompts.id))
    .where(and(inSpace(space), eq(prompts.name, reference.name), which))
    .limit(1)
  return row ? { ...row, type: row.type as ReferencedVersion['type'] } : null
}

/** How a check finds the version a reference names (`loadReference` in one space). */
export type ReferenceLoader = (reference: PromptReference) => Promise<ReferencedVersion | null>

/**
 * `loadReference` in `space` that asks the database once per reference (its tag names the prompt
 * and the label or version) and answers every later ask from then on: for a check of many versions
 * while nothing else is written (an import's, after its last write), where thousands of versions
 * may name the same prompt.
 */
export function onceEachReference(db: Db | Tx, space: Space): ReferenceLoader {
  const loads = new Map<string, Promise<ReferencedVersion | null>>()
  return (reference) => {
    let load = loads.get(reference.tag)
    if (!load) {
      load = loadReference(db, space, reference)
      loads.set(reference.tag, load)
    }
    return load
  }
}

/** The message key and its parameters for each problem a resolution can meet. */
function problemMessage(problem: ReferenceProblem): [MessageKey, MessageParams] {
  switch (problem.kind) {
    case 'cycle':
      return ['prompts.referenceCycle', { cycle: problem.cycle.join(' → ') }]
    case 'too_deep':
      return ['prompts.referenceTooDeep', { max: MAX_REFERENCE_DEPTH, chain: problem.chain.join(' → ') }]
    case 'missing':
      return ['prompts.referenceMissing', { reference: problem.reference }]
    case 'not_text':
      return ['prompts.referenceNotText', { reference: problem.reference }]
    case 'too_many_tags':
      return [
        'prompts.referenceTooManyTags',
        { prompt: problem.prompt, count: problem.count, max: MAX_REFERENCE_TAGS },
      ]
    case 'too_many_references':
      return ['prompts.referenceTooMany', { max: MAX_RESOLVED_REFERENCES, chain: problem.chain.join(' → ') }]
    case 'too_large':
      return ['prompts.referenceTooLarge', { max: MAX_RESOLVED_LENGTH, chain: problem.chain.join(' → ') }]
  }
}

/** A PromptReferenceError as the API's one error shape: 400, on `body` when it comes from a save. */
export function referenceAppError(error: PromptReferenceError, field?: 'body'): AppError {
  const [key, params] = problemMessage(error.problem)
  return new AppError('validation', key, {
    params,
    reason: `reference_${error.problem.kind}`,
    ...(field && { fields: { [field]: key } }),
  })
}

/**
 * Resolves a stored version's references in its space; a broken reference, or one whose
 * expansion passes the bounds (decision 0239), is a 400 naming it.
 */
export async function resolveInSpace(db: Db | Tx, space: Space, root: ReferencedVersion) {
  try {
    return await resolveReferences(root, (reference) => loadReference(db, space, reference))
  } catch (error) {
    if (error instanceof PromptReferenceError) throw referenceAppError(error)
    throw error
  }
}

/**
 * Why a version about to be written could not be resolved in its space (a missing reference, a
 * cycle, more than MAX_REFERENCE_DEPTH deep, or past the expansion bounds), or null when it can:
 * every door that writes a version (create, save, import, the Langfuse create) asks this.
 */
export async function unresolvableBody(
  tx: Tx,
  space: Space,
  version: ReferencedVersion,
  load: ReferenceLoader = (reference) => loadReference(tx, space, reference),
): Promise<PromptReferenceError | null> {
  if (parseReferences(version.body).length === 0) return null
  try {
    await resolveReferences(version, load)
    return null
  } catch (error) {
    if (error instanceof PromptReferenceError) return error
    throw error
  }
}

/** On save: the body a prompt is about to have must resolve in its space, else a 400 on `body`. */
export async function requireResolvableBody(
  tx: Tx,
  space: Space,
  prompt: { name: string; type: PromptType },
  body: string,
): Promise<void> {
  const problem = await unresolvableBody(tx, space, {
    id: 'new',
    name: prompt.name,
    version: 0,
    type: prompt.type,
    body,
  })
  if (problem) throw referenceAppError(problem, 'body')
}

/**
 * Records the prompt names new versions include (decision 0210), in the transaction that wrote
 * them; deleting a version or prompt takes its rows with it.
 */
export async function recordDependencies(
  tx: Tx,
  versions: readonly { id: string; promptId: string; body: string }[],
): Promise<void> {
  const rows = versions.flatMap((version) =>
    [...new Set(parseReferences(version.body).map((reference) => reference.name))].map((name) => ({
      versionId: version.id,
      promptId: version.promptId,
      name,
    })),
  )
  // In statements of 1,000 rows (3 parameters each): an import's batch may name many.
  for (let at = 0; at < rows.length; at += 1000) {
    await tx
      .insert(promptDependencies)
      .values(rows.slice(at, at + 1000))
      .onConflictDoNothing()
  }
}

/**
 * The other prompts of `space` that include the prompt named `name` in any of their versions,
 * by name: "Used by" on its page, and what refuses its deletion (the dependency table's index).
 */
export async function promptsIncluding(
  db: Db | Tx,
  space: Space,
  prompt: { id: string; name: string },
): Promise<{ id: string; name: string; title: string }[]> {
  return db
    .select({ id: prompts.id, name: prompts.name, title: prompts.title })
    .from(prompts)
    .where(
      and(
        inSpace(space),
        ne(prompts.id, prompt.id),
        inArray(
          prompts.id,
          db
            .select({ id: promptDependencies.promptId })
            .from(promptDependencies)
            .where(eq(promptDependencies.name, prompt.name)),
        ),
      ),
    )
    .orderBy(asc(prompts.name))
    .limit(100)
}
