import { and, asc, eq, exists, inArray, ne, sql } from 'drizzle-orm'
import { AppError } from '../../../domain/errors.ts'
import { LATEST_LABEL, PRODUCTION_LABEL, type PromptType } from '../../../domain/prompt-names.ts'
import {
  MAX_REFERENCE_DEPTH,
  type PromptReference,
  PromptReferenceError,
  parseReferences,
  type ReferencedVersion,
  resolveReferences,
} from '../../../domain/prompt-references.ts'
import type { Db, Tx } from '../../db/client.ts'
import { promptDependencies, promptLabels, prompts, promptVersions } from '../../db/schema/index.ts'
import { inSpace, type Space } from './names.ts'

/**
 * References between prompts on the server (issue 17, decision 0175): loading a referenced version
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

/** A PromptReferenceError as the API's one error shape: 400, on `body` when it comes from a save. */
export function referenceAppError(error: PromptReferenceError, field?: 'body'): AppError {
  const { problem } = error
  const [key, params] =
    problem.kind === 'cycle'
      ? (['prompts.referenceCycle', { cycle: problem.cycle.join(' → ') }] as const)
      : problem.kind === 'too_deep'
        ? ([
            'prompts.referenceTooDeep',
            { max: MAX_REFERENCE_DEPTH, chain: problem.chain.join(' → ') },
          ] as const)
        : problem.kind === 'missing'
          ? (['prompts.referenceMissing', { reference: problem.reference }] as const)
          : (['prompts.referenceNotText', { reference: problem.reference }] as const)
  return new AppError('validation', key, {
    params,
    reason: `reference_${problem.kind}`,
    ...(field && { fields: { [field]: key } }),
  })
}

/** Resolves a stored version's references in its space; a broken reference is a 400 naming it. */
export async function resolveInSpace(db: Db | Tx, space: Space, root: ReferencedVersion) {
  try {
    return await resolveReferences(root, (reference) => loadReference(db, space, reference))
  } catch (error) {
    if (error instanceof PromptReferenceError) throw referenceAppError(error)
    throw error
  }
}

/**
 * On save: the body a prompt is about to have must resolve in its space (every reference found,
 * no cycle back to the prompt itself, at most MAX_REFERENCE_DEPTH deep), else a 400 on `body`.
 */
export async function requireResolvableBody(
  tx: Tx,
  space: Space,
  prompt: { name: string; type: PromptType },
  body: string,
): Promise<void> {
  if (parseReferences(body).length === 0) return
  try {
    await resolveReferences(
      { id: 'new', name: prompt.name, version: 0, type: prompt.type, body },
      (reference) => loadReference(tx, space, reference),
    )
  } catch (error) {
    if (error instanceof PromptReferenceError) throw referenceAppError(error, 'body')
    throw error
  }
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
  if (rows.length > 0) await tx.insert(promptDependencies).values(rows).onConflictDoNothing()
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
