import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm'
import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { type DeletionEffect, deletionBreaks } from '../../../domain/prompt-deletion.ts'
import { PRODUCTION_LABEL } from '../../../domain/prompt-names.ts'
import { type PromptReference, parseReferences } from '../../../domain/prompt-references.ts'
import { spaceOf } from '../../../domain/spaces.ts'
import { recordAudit } from '../../core/audit.ts'
import { enqueueEvent, eventActor, promptData } from '../../core/events.ts'
import type { Db, Tx } from '../../db/client.ts'
import { promptDependencies, promptLabels, prompts, promptVersions } from '../../db/schema/index.ts'
import { lockVisiblePrompt, type PromptRow } from './access.ts'
import { mapPromptDbError } from './db-errors.ts'
import { auditWhoOf, type Mover, moverOf, placeLabel, requireMayMove } from './labels.ts'
import { inSpace } from './names.ts'
import { requirePromptAccess } from './policy.ts'
import { removePrompts } from './service.ts'

/**
 * Deleting a prompt or some of its versions: one rule for every door (the app's delete, the
 * Langfuse DELETE). The labels the deleted versions hold go with them, so a protected one goes
 * only with whoever may move it (a team admin in the app, never a key); and nothing that another
 * prompt of the space includes may disappear under it.
 */

/** What a delete takes: the whole prompt, or these of its versions. */
export type Deleted = 'all' | readonly { id: string; versionNumber: number }[]

/** A version of another prompt that includes what a delete would take. */
export interface Dependent {
  name: string
  version: number
  reference: PromptReference
}

/** Dependents named in one refusal; more are not read. */
const MAX_DEPENDENTS = 100
/** Dependent versions whose bodies are read at a time (a body is at most 50 KB). */
const BATCH = 100

/**
 * The delete would break `dependents`. The app answers 409 naming their prompts (`prompts.usedBy`),
 * the Langfuse door 400 naming each version and what it includes, as Langfuse does.
 */
export class PromptInUseError extends AppError {
  constructor(
    readonly promptName: string,
    readonly dependents: readonly Dependent[],
  ) {
    super('conflict', 'prompts.usedBy', {
      params: { prompts: [...new Set(dependents.map((dependent) => dependent.name))].join(', ') },
      reason: 'referenced_by_prompts',
    })
  }
}

/** The labels the deleted versions hold (production and stored ones), each with its version. */
async function labelsTaken(tx: Tx, prompt: PromptRow, deleted: Deleted) {
  const ids = deleted === 'all' ? null : deleted.map((version) => version.id)
  const stored = await tx
    .select({ label: promptLabels.label, versionId: promptLabels.versionId })
    .from(promptLabels)
    .where(and(eq(promptLabels.promptId, prompt.id), ids ? inArray(promptLabels.versionId, ids) : undefined))
  const current = prompt.currentVersionId
  const production =
    current !== null && (ids === null || ids.includes(current))
      ? [{ label: PRODUCTION_LABEL, versionId: current }]
      : []
  return [...production, ...stored]
}

/** The versions of other prompts in the space whose references the delete breaks (at most MAX_DEPENDENTS). */
async function dependentsBroken(tx: Tx, prompt: PromptRow, effect: DeletionEffect): Promise<Dependent[]> {
  const found: Dependent[] = []
  // The dependency table says which versions include the name; their bodies say how (by version
  // or by label), read a batch at a time.
  for (let offset = 0; found.length < MAX_DEPENDENTS; offset += BATCH) {
    const rows = await tx
      .select({ name: prompts.name, version: promptVersions.versionNumber, body: promptVersions.body })
      .from(promptDependencies)
      .innerJoin(prompts, eq(prompts.id, promptDependencies.promptId))
      .innerJoin(promptVersions, eq(promptVersions.id, promptDependencies.versionId))
      .where(
        and(eq(promptDependencies.name, prompt.name), inSpace(spaceOf(prompt)), ne(prompts.id, prompt.id)),
      )
      .orderBy(asc(prompts.name), asc(promptVersions.versionNumber), asc(promptVersions.id))
      .limit(BATCH)
      .offset(offset)
    for (const row of rows) {
      for (const reference of parseReferences(row.body)) {
        if (reference.name === prompt.name && deletionBreaks(reference, effect)) {
          found.push({ name: row.name, version: row.version, reference })
        }
      }
    }
    if (rows.length < BATCH) break
  }
  return found.slice(0, MAX_DEPENDENTS)
}

/**
 * Deletes the whole prompt or some of its versions, in the caller's transaction, which holds the
 * prompt's row lock; the caller has checked that `mover` may change the prompt at all. First the
 * rule: a protected label on a deleted version is a 403 unless `mover` may move it; an including
 * prompt that would break is a `PromptInUseError`. Then the delete: the whole prompt (with
 * attachments, an audit entry and a `prompt.deleted` event) when no version remains, else the
 * versions, their labels taken off first so the label history records it.
 */
export async function deletePromptVersions(
  tx: Tx,
  prompt: PromptRow,
  deleted: Deleted,
  mover: Mover,
): Promise<void> {
  const taken = await labelsTaken(tx, prompt, deleted)
  await requireMayMove(
    tx,
    prompt,
    taken.map((held) => held.label),
    mover,
    { deleting: true },
  )
  const [versions] = await tx
    .select({ n: count() })
    .from(promptVersions)
    .where(eq(promptVersions.promptId, prompt.id))
  const whole = deleted === 'all' || deleted.length >= (versions?.n ?? 0)
  const effect: DeletionEffect = {
    all: whole,
    versions: new Set(deleted === 'all' ? [] : deleted.map((version) => version.versionNumber)),
    labels: new Set(taken.map((held) => held.label)),
  }
  const dependents = await dependentsBroken(tx, prompt, effect)
  if (dependents.length > 0) throw new PromptInUseError(prompt.name, dependents)
  if (whole) {
    await recordAudit(tx, auditWhoOf(mover), {
      action: 'prompt.deleted',
      objectType: 'prompt',
      objectId: prompt.id,
      teamId: prompt.visibility === 'team' ? prompt.teamId : null,
      before: { title: prompt.title, name: prompt.name, visibility: prompt.visibility },
    })
    await enqueueEvent(tx, spaceOf(prompt), {
      type: 'prompt.deleted',
      actor: eventActor(mover),
      data: { prompt: promptData(prompt) },
    })
    await removePrompts(tx, eq(prompts.id, prompt.id))
    return
  }
  for (const held of taken) await placeLabel(tx, prompt, held.label, null, mover)
  await tx.delete(promptVersions).where(
    and(
      eq(promptVersions.promptId, prompt.id),
      inArray(
        promptVersions.id,
        deleted.map((version) => version.id),
      ),
    ),
  )
  await tx.update(prompts).set({ updatedAt: sql`now()` }).where(eq(prompts.id, prompt.id))
}

/** The app's delete: the owner deletes the prompt with its attachments and versions. */
export async function deletePrompt(db: Db, actor: Actor, promptId: string): Promise<void> {
  await db
    .transaction(async (tx) => {
      const prompt = await lockVisiblePrompt(tx, actor, promptId)
      requirePromptAccess(actor, prompt, 'delete')
      await deletePromptVersions(tx, prompt, 'all', moverOf(actor))
    })
    .catch(mapPromptDbError)
}
