import { and, count, eq, inArray, max, type SQL, sql } from 'drizzle-orm'
import { AppError } from '../../../domain/errors.ts'
import type { DeletionEffect } from '../../../domain/prompt-deletion.ts'
import {
  LATEST_LABEL,
  PRODUCTION_LABEL,
  type PromptConfig,
  type PromptType,
} from '../../../domain/prompt-names.ts'
import type { Variables } from '../../../domain/prompt-variables.ts'
import { PROMPT_LIMITS } from '../../../domain/prompts.ts'
import { planSubjectOfSpace, type Space, spaceOf } from '../../../domain/spaces.ts'
import { recordAudit } from '../../core/audit.ts'
import { enqueueEvent, eventActor, promptData, versionData } from '../../core/events.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import { auditWhoOf, type Principal } from '../../core/principal.ts'
import type { Tx } from '../../db/client.ts'
import { conversationMessagePrompts, prompts, promptVersions } from '../../db/schema/index.ts'
import { type PromptRow, promptColumns } from './access.ts'
import { type Deleted, dependentsBroken, labelsTaken, PromptInUseError } from './deletion.ts'
import { mayMove, placeLabel, recordPromptCreated, requireMayMove } from './labels.ts'
import { recordDependencies, requireResolvableBody } from './references.ts'

/**
 * The one write path of prompts: every door (the app's API, the importer, the Langfuse API and the
 * MCP server through it) translates its request into these operations and its answer out of them.
 * Each runs in the caller's transaction, which holds the prompt's row lock (a new prompt's row is
 * its own), and applies once what every door owes: the plan gate, the version limit, the
 * reference check, the dependency rows, the label rules (`latest` is never moved, protected
 * labels only by whoever `permissions.mayMoveLabel` allows), the webhook events and the audit
 * entries. Who may touch the prompt at all (its owner in the app, any key of its space at the
 * Langfuse door) is the door's check, made before.
 */

/** A version a write adds; `body` is stored as is (the door has normalised it). */
export interface NewVersion {
  body: string
  config: PromptConfig
  /** Absent: the prompt's current version's declarations (none for a new prompt). */
  variables?: Variables
  changelog: string | null
}

/** A version already there, or (a number) the index of one the same write adds. */
export type LabelTarget = { id: string; versionNumber: number } | number

export interface VersionsWrite {
  versions: readonly NewVersion[]
  /** Where labels go, in this order; production makes its version current. */
  labels?: readonly (readonly [label: string, to: LabelTarget])[]
  /**
   * A label the mover may not move: 'refuse' (403, nothing written, the Langfuse door) or 'skip'
   * (left where it is, the version waits for someone who may: the app and the importer).
   */
  forbiddenLabels: 'refuse' | 'skip'
  /** The importer checks references itself once every prompt of its file is in. */
  deferReferenceCheck?: boolean
}

export interface NewPrompt {
  name: string
  title: string
  description?: string | null
  tags: string[]
  type: PromptType
}

/** The user a write acts as: the person, or the user a key acts for (none once they are gone). */
const userOf = (mover: Principal): string | null => (mover.kind === 'user' ? mover.actor.id : mover.userId)

/**
 * A new prompt in `space` with its first versions and labels. A person's new prompt starts current
 * whatever the team protects (nothing is moved: no version held production before); a key's only
 * where it may move production.
 */
export async function createPrompt(
  tx: Tx,
  plans: PlanGate,
  mover: Principal,
  space: Space,
  input: NewPrompt & VersionsWrite,
): Promise<WrittenVersions> {
  await plans.require(tx, planSubjectOfSpace(space), 'createPrompt')
  // A prompt needs an owner: a key whose user is gone adds versions but creates no prompt.
  const ownerUserId = userOf(mover)
  if (!ownerUserId) throw new AppError('forbidden', 'apiKeys.invalid')
  const [prompt] = await tx
    .insert(prompts)
    .values({
      ownerUserId,
      name: input.name,
      title: input.title,
      description: input.description ?? null,
      tags: input.tags,
      type: input.type,
      visibility: space.kind === 'team' ? 'team' : 'private',
      teamId: space.kind === 'team' ? space.teamId : null,
    })
    .returning(promptColumns)
  return writeVersions(tx, mover, prompt!, input, true)
}

/**
 * New versions of a locked prompt (none: only label moves), numbered after its highest. `type`,
 * when given, must be the prompt's; `tags`, when given, replace the prompt's.
 */
export async function appendVersions(
  tx: Tx,
  plans: PlanGate,
  mover: Principal,
  prompt: PromptRow,
  input: VersionsWrite & { type?: PromptType; tags?: string[] },
): Promise<WrittenVersions> {
  if (input.type !== undefined && input.type !== prompt.type) {
    throw new AppError('validation', 'prompts.typeChange')
  }
  if (input.versions.length > 0) {
    await plans.require(tx, planSubjectOfSpace(spaceOf(prompt)), 'editPrompt')
    const [row] = await tx
      .update(prompts)
      .set({ ...(input.tags && { tags: input.tags }), updatedAt: sql`now()` })
      .where(eq(prompts.id, prompt.id))
      .returning({ tags: prompts.tags, updatedAt: prompts.updatedAt })
    Object.assign(prompt, row)
  }
  return writeVersions(tx, mover, prompt, input, false)
}

export interface WrittenVersions {
  prompt: PromptRow
  versions: { id: string; versionNumber: number; body: string }[]
}

async function writeVersions(
  tx: Tx,
  mover: Principal,
  prompt: PromptRow,
  input: VersionsWrite,
  isNew: boolean,
): Promise<WrittenVersions> {
  const [held] = await tx
    .select({ n: count(), highest: max(promptVersions.versionNumber) })
    .from(promptVersions)
    .where(eq(promptVersions.promptId, prompt.id))
  if ((held?.n ?? 0) + input.versions.length > PROMPT_LIMITS.versions) {
    throw new AppError('conflict', 'prompts.tooManyVersions', {
      params: { max: PROMPT_LIMITS.versions },
      reason: 'version_limit',
    })
  }
  const wanted = input.labels ?? []
  if (input.forbiddenLabels === 'refuse') {
    await requireMayMove(
      tx,
      prompt,
      wanted.map(([label]) => label),
      mover,
    )
  }
  if (!input.deferReferenceCheck) {
    for (const version of input.versions) {
      await requireResolvableBody(tx, spaceOf(prompt), prompt, version.body)
    }
  }
  const keptVariables = isNew ? undefined : await currentVariables(tx, prompt)
  const versions =
    input.versions.length === 0
      ? []
      : await tx
          .insert(promptVersions)
          .values(
            input.versions.map((version, index) => ({
              promptId: prompt.id,
              versionNumber: (held?.highest ?? 0) + index + 1,
              body: version.body,
              config: version.config,
              ...((version.variables ?? keptVariables) && { variables: version.variables ?? keptVariables }),
              changelog: version.changelog,
              createdByUserId: userOf(mover),
              createdByApiKeyId: mover.kind === 'apiKey' ? mover.keyId : null,
            })),
          )
          .returning({
            id: promptVersions.id,
            versionNumber: promptVersions.versionNumber,
            body: promptVersions.body,
          })
  versions.sort((a, b) => a.versionNumber - b.versionNumber)
  await recordDependencies(
    tx,
    versions.map((version) => ({ id: version.id, promptId: prompt.id, body: version.body })),
  )
  const placed: [string, { id: string; versionNumber: number }][] = []
  for (const [label, to] of wanted) {
    const target = typeof to === 'number' ? versions[to]! : to
    const startsCurrent = isNew && label === PRODUCTION_LABEL && mover.kind === 'user'
    if (input.forbiddenLabels === 'refuse' || startsCurrent || (await mayMove(tx, prompt, label, mover))) {
      placed.push([label, target])
    }
  }
  // The events the write makes, in order: the prompt (with its first version) or each new version,
  // each naming the labels it gets, then each label moved.
  for (const [index, version] of versions.entries()) {
    await enqueueEvent(tx, spaceOf(prompt), {
      type: isNew && index === 0 ? 'prompt.created' : 'prompt.version.created',
      actor: eventActor(mover),
      data: {
        prompt: promptData(prompt),
        version: versionData({
          ...version,
          config: input.versions[index]!.config,
          changelog: input.versions[index]!.changelog,
          labels: [
            ...placed.filter(([, target]) => target.id === version.id).map(([label]) => label),
            ...(index === versions.length - 1 ? [LATEST_LABEL] : []),
          ],
        }),
      },
    })
  }
  // A new prompt's audit entry names the labels it starts with, instead of a move per label.
  for (const [label, target] of placed) await placeLabel(tx, prompt, label, target, mover, !isNew)
  if (isNew) {
    await recordPromptCreated(
      tx,
      prompt,
      versions.length,
      placed.map(([label]) => label),
      mover,
    )
  }
  return { prompt, versions }
}

/** The typed variables the prompt's current version declares, if it has one. */
async function currentVariables(tx: Tx, prompt: PromptRow) {
  if (!prompt.currentVersionId) return undefined
  const [row] = await tx
    .select({ variables: promptVersions.variables })
    .from(promptVersions)
    .where(eq(promptVersions.id, prompt.currentVersionId))
  return row?.variables
}

/** Puts each label on its version (null: takes it off), all or none: any the mover may not move is a 403. */
export async function moveLabels(
  tx: Tx,
  mover: Principal,
  prompt: PromptRow,
  moves: readonly (readonly [label: string, to: { id: string; versionNumber: number } | null])[],
): Promise<void> {
  await requireMayMove(
    tx,
    prompt,
    moves.map(([label]) => label),
    mover,
  )
  for (const [label, to] of moves) await placeLabel(tx, prompt, label, to, mover)
}

/**
 * Deletes the whole prompt or some of its versions. First the rules: a protected label on a
 * deleted version is a 403 unless `mover` may move it; an including prompt that would break is a
 * `PromptInUseError`. Then the whole prompt (with an audit entry and a `prompt.deleted` event) when
 * no version remains, else the versions, their labels taken off first so the label history
 * records it.
 */
export async function deleteVersions(
  tx: Tx,
  mover: Principal,
  prompt: PromptRow,
  deleted: Deleted,
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

/** Deletes the whole prompt (`deleteVersions` with every version). */
export const deletePrompt = (tx: Tx, mover: Principal, prompt: PromptRow) =>
  deleteVersions(tx, mover, prompt, 'all')

/**
 * Removes the prompts `which` selects with what hangs on them, without rules, events or audit:
 * for deleting an account or a team, whose own entries cover them. Their attachments to messages,
 * their versions (labels and label history go with them), then the prompts.
 */
export async function removePrompts(tx: Tx, which: SQL): Promise<void> {
  const ids = tx.select({ id: prompts.id }).from(prompts).where(which)
  await tx.delete(conversationMessagePrompts).where(inArray(conversationMessagePrompts.promptId, ids))
  await tx.update(prompts).set({ currentVersionId: null }).where(which)
  await tx.delete(promptVersions).where(inArray(promptVersions.promptId, ids))
  await tx.delete(prompts).where(which)
}
