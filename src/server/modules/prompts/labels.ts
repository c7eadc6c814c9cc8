import { and, eq, sql } from 'drizzle-orm'
import type { AuditEntryInput } from '../../../domain/audit.ts'
import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { mayMoveLabel } from '../../../domain/permissions.ts'
import { LATEST_LABEL, PRODUCTION_LABEL } from '../../../domain/prompt-names.ts'
import { spaceOf } from '../../../domain/spaces.ts'
import { recordAudit } from '../../core/audit.ts'
import { enqueueEvent, eventActor } from '../../core/events.ts'
import { auditWhoOf, type Principal } from '../../core/principal.ts'
import { roleInTeam } from '../../core/team-membership.ts'
import type { Db, Tx } from '../../db/client.ts'
import { createdAfterAll } from '../../db/queries.ts'
import {
  promptLabelEvents,
  promptLabels,
  prompts,
  promptVersions,
  teamProtectedLabels,
} from '../../db/schema/index.ts'
import type { PromptRow } from './access.ts'

/**
 * Labels on versions. 'production' is the prompt's current version (the app's "Set as
 * Current"), 'latest' its highest version (kept by the database, never moved), every other label a
 * row of prompt_labels. Every move is recorded in prompt_label_events, in the transaction that
 * made it, which holds the prompt's row lock.
 */
export async function protectedLabelsOf(db: Db | Tx, prompt: Pick<PromptRow, 'visibility' | 'teamId'>) {
  if (prompt.visibility !== 'team' || !prompt.teamId) return []
  const rows = await db
    .select({ label: teamProtectedLabels.label })
    .from(teamProtectedLabels)
    .where(eq(teamProtectedLabels.teamId, prompt.teamId))
  return rows.map((row) => row.label)
}

/** Where a prompt is: all the label rules ask of it (a new prompt's, before its row is written). */
type PromptPlace = Pick<PromptRow, 'visibility' | 'teamId'>

async function isTeamAdmin(tx: Tx, prompt: PromptPlace, actor: Actor): Promise<boolean> {
  if (actor.globalRole === 'global_admin') return true
  if (prompt.visibility !== 'team' || !prompt.teamId) return false
  return (await roleInTeam(tx, prompt.teamId, actor.id)) === 'admin'
}

/**
 * Whether `mover` may move a label on this prompt (protected labels: team admins in the app only),
 * as a function of the label: the place's protected labels are read once, on the first label asked,
 * and the mover's role once, on the first protected one.
 */
export function labelMoverFor(
  tx: Tx,
  prompt: PromptPlace,
  mover: Principal,
): (label: string) => Promise<boolean> {
  let protectedLabels: Promise<string[]> | undefined
  let isAdmin: Promise<boolean> | undefined
  return async (label) => {
    if (label === LATEST_LABEL) return false
    protectedLabels ??= protectedLabelsOf(tx, prompt)
    const labels = await protectedLabels
    if (!labels.includes(label)) return true
    if (mover.kind === 'apiKey') return mayMoveLabel(label, labels, mover)
    isAdmin ??= isTeamAdmin(tx, prompt, mover.actor)
    return mayMoveLabel(label, labels, { kind: 'user', isTeamAdmin: await isAdmin })
  }
}

/**
 * 403 unless `mover` may move every label: 'Only team admins may move the protected label …', or
 * for a key that keys never move it. `deleting`: the labels go because their versions are deleted.
 */
export async function requireMayMove(
  tx: Tx,
  prompt: PromptPlace,
  labels: readonly string[],
  mover: Principal,
  options: { deleting?: boolean } = {},
) {
  const byKey = mover.kind === 'apiKey'
  const mayMoveHere = labelMoverFor(tx, prompt, mover)
  for (const label of labels) {
    if (label === LATEST_LABEL) throw new AppError('validation', 'prompts.labelLatest')
    if (!(await mayMoveHere(label))) {
      const key = options.deleting
        ? byKey
          ? 'prompts.deleteProtectedByKey'
          : 'prompts.deleteProtected'
        : byKey
          ? 'prompts.labelProtectedByKey'
          : 'prompts.labelProtected'
      throw new AppError('forbidden', key, { params: { label }, reason: 'protected_label' })
    }
  }
}

async function versionNumberOf(tx: Tx, versionId: string | null): Promise<number | null> {
  if (!versionId) return null
  const [row] = await tx
    .select({ versionNumber: promptVersions.versionNumber })
    .from(promptVersions)
    .where(eq(promptVersions.id, versionId))
  return row?.versionNumber ?? null
}

/**
 * Puts `label` on version `to` of the prompt (or takes it off when `to` is null) and records the
 * move. The caller holds the prompt's row lock and has checked `requireMayMove`. `prompt` is
 * updated in place so later moves in the same transaction see the new current version.
 */
export async function placeLabel(
  tx: Tx,
  prompt: PromptRow,
  label: string,
  to: { id: string; versionNumber: number } | null,
  mover: Principal,
  /** False for the labels a new prompt starts with: its 'prompt.created' entry names them. */
  audited = true,
): Promise<void> {
  let fromVersion: number | null
  if (label === PRODUCTION_LABEL) {
    if (prompt.currentVersionId === (to?.id ?? null)) return
    fromVersion = await versionNumberOf(tx, prompt.currentVersionId)
    await tx
      .update(prompts)
      .set({ currentVersionId: to?.id ?? null, updatedAt: sql`now()` })
      .where(eq(prompts.id, prompt.id))
    prompt.currentVersionId = to?.id ?? null
  } else {
    const [current] = await tx
      .select({ versionId: promptLabels.versionId, versionNumber: promptVersions.versionNumber })
      .from(promptLabels)
      .innerJoin(promptVersions, eq(promptVersions.id, promptLabels.versionId))
      .where(and(eq(promptLabels.promptId, prompt.id), eq(promptLabels.label, label)))
    if ((current?.versionId ?? null) === (to?.id ?? null)) return
    fromVersion = current?.versionNumber ?? null
    if (to) {
      await tx
        .insert(promptLabels)
        .values({ promptId: prompt.id, label, versionId: to.id })
        .onConflictDoUpdate({
          target: [promptLabels.promptId, promptLabels.label],
          set: { versionId: to.id, createdAt: sql`now()` },
        })
    } else {
      await tx
        .delete(promptLabels)
        .where(and(eq(promptLabels.promptId, prompt.id), eq(promptLabels.label, label)))
    }
    await tx.update(prompts).set({ updatedAt: sql`now()` }).where(eq(prompts.id, prompt.id))
  }
  await tx.insert(promptLabelEvents).values({
    promptId: prompt.id,
    label,
    fromVersion,
    toVersion: to?.versionNumber ?? null,
    actorUserId: mover.kind === 'user' ? mover.actor.id : mover.userId,
    apiKeyId: mover.kind === 'apiKey' ? mover.keyId : null,
    createdAt: createdAfterAll(promptLabelEvents.createdAt, promptLabelEvents.promptId, prompt.id),
  })
  if (audited)
    await recordAudit(tx, auditWhoOf(mover), {
      action: 'label.moved',
      objectType: 'label',
      objectId: prompt.id,
      teamId: prompt.visibility === 'team' ? prompt.teamId : null,
      before: { label, version: fromVersion },
      after: { label, version: to?.versionNumber ?? null },
    })
  await enqueueEvent(tx, spaceOf(prompt), {
    type: 'prompt.label.moved',
    actor: eventActor(mover),
    data: {
      prompt: { id: prompt.id, name: prompt.name },
      label,
      fromVersion,
      toVersion: to?.versionNumber ?? null,
    },
  })
}

/**
 * The audit entry of a new prompt, in place of a 'label.moved' entry per label it starts with (a
 * move from nowhere would read as noise): its name, type, how many versions it starts with and
 * those labels.
 */
export async function recordPromptCreated(
  tx: Tx,
  prompt: PromptRow,
  versions: number,
  labels: readonly string[],
  mover: Principal,
): Promise<void> {
  await recordAudit(tx, auditWhoOf(mover), promptCreatedEntry(prompt, versions, labels))
}

/** `recordPromptCreated`'s entry, for writes that record many at once. */
export function promptCreatedEntry(
  prompt: PromptRow,
  versions: number,
  labels: readonly string[],
): AuditEntryInput {
  return {
    action: 'prompt.created',
    objectType: 'prompt',
    objectId: prompt.id,
    teamId: prompt.visibility === 'team' ? prompt.teamId : null,
    after: { name: prompt.name, type: prompt.type, versions, labels: [...labels] },
  }
}
