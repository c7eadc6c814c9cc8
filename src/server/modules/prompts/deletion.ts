import { and, asc, eq, inArray, ne } from 'drizzle-orm'
import { AppError } from '../../../domain/errors.ts'
import { type DeletionEffect, deletionBreaks } from '../../../domain/prompt-deletion.ts'
import { PRODUCTION_LABEL } from '../../../domain/prompt-names.ts'
import { type PromptReference, parseReferences } from '../../../domain/prompt-references.ts'
import { spaceOf } from '../../../domain/spaces.ts'
import type { Tx } from '../../db/client.ts'
import { promptDependencies, promptLabels, prompts, promptVersions } from '../../db/schema/index.ts'
import type { PromptRow } from './access.ts'
import { inSpace } from './names.ts'

/**
 * What a delete (`writes.deleteVersions`) checks first: the labels the deleted versions hold go
 * with them, so a protected one goes only with whoever may move it; and nothing that another
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
export async function labelsTaken(tx: Tx, prompt: PromptRow, deleted: Deleted) {
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
export async function dependentsBroken(
  tx: Tx,
  prompt: PromptRow,
  effect: DeletionEffect,
): Promise<Dependent[]> {
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
