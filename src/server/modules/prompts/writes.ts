import { randomUUID } from 'node:crypto'
import { and, count, eq, inArray, max, type SQL, sql } from 'drizzle-orm'
import type { AuditEntryInput } from '../../../domain/audit.ts'
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
import { recordAudit, recordAudits } from '../../core/audit.ts'
import {
  enqueueEvent,
  enqueueEvents,
  eventActor,
  promptData,
  versionData,
  type WebhookEvent,
} from '../../core/events.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import { auditWhoOf, type Principal } from '../../core/principal.ts'
import type { Tx } from '../../db/client.ts'
import { jsonRecords } from '../../db/queries.ts'
import { conversationMessagePrompts, prompts, promptVersions } from '../../db/schema/index.ts'
import { type PromptRow, promptColumns } from './access.ts'
import { type Deleted, dependentsBroken, labelsTaken, PromptInUseError } from './deletion.ts'
import { labelMoverFor, placeLabel, promptCreatedEntry, requireMayMove } from './labels.ts'
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
  const [written] = await createPrompts(tx, plans, mover, space, [input])
  return written!
}

/**
 * Rows per INSERT of a batch (each statement's rows are one JSON parameter): its statement triggers
 * run once per statement, so an import's batch of 500 prompts × 3 versions is one statement each.
 */
const ROWS_PER_STATEMENT = 2000
/** …and at most this many characters of version bodies in one statement (a body may hold 50,000). */
const BODY_CHARACTERS_PER_STATEMENT = 4_000_000

/**
 * `write` for each slice of `rows` small enough for one statement (`size`: a row's characters to
 * count against BODY_CHARACTERS_PER_STATEMENT), in order.
 */
async function inStatements<R>(
  rows: readonly R[],
  write: (slice: R[]) => Promise<unknown>,
  size: (row: R) => number = () => 0,
): Promise<void> {
  let slice: R[] = []
  let characters = 0
  for (const row of rows) {
    if (
      slice.length > 0 &&
      (slice.length >= ROWS_PER_STATEMENT || characters + size(row) > BODY_CHARACTERS_PER_STATEMENT)
    ) {
      await write(slice)
      slice = []
      characters = 0
    }
    slice.push(row)
    characters += size(row)
  }
  if (slice.length > 0) await write(slice)
}

/**
 * New prompts in `space` at once (an import's batch, or `createPrompt`'s one), answered in the
 * order given: each gets exactly what `createPrompt` owes it — the plan gate, checked once for all
 * of them (`adding`: a batch that would pass the plan's prompt limit is refused whole), the version
 * limit, the label rules, the reference check unless deferred, the dependency rows, its events
 * ('prompt.created' with its first version, 'prompt.version.created' for each further one, a
 * 'prompt.label.moved' per label it starts with) and its 'prompt.created' audit entry — written in
 * multi-row statements instead of a few per prompt.
 *
 * Each prompt row is written once (decision 0271): the versions go first, with ids made here and
 * the versions' foreign key to their prompt deferred meanwhile, then the prompts carrying their
 * current version; the triggers fill in the current body and the figures from the versions already
 * there. Writing the prompt first took two more updates of every row (its version count, its
 * current version), each a new row version in every index of `prompts`.
 */
export async function createPrompts(
  tx: Tx,
  plans: PlanGate,
  mover: Principal,
  space: Space,
  inputs: readonly (NewPrompt & VersionsWrite)[],
): Promise<WrittenVersions[]> {
  if (inputs.length === 0) return []
  await plans.require(tx, planSubjectOfSpace(space), 'createPrompt', { adding: inputs.length })
  // A prompt needs an owner: a key whose user is gone adds versions but creates no prompt.
  const ownerUserId = userOf(mover)
  if (!ownerUserId) throw new AppError('forbidden', 'apiKeys.invalid')
  /** Where every new prompt goes: what the label rules and the reference check ask of it. */
  const place: Pick<PromptRow, 'visibility' | 'teamId' | 'ownerUserId'> = {
    visibility: space.kind === 'team' ? 'team' : 'private',
    teamId: space.kind === 'team' ? space.teamId : null,
    ownerUserId,
  }
  // The checks a prompt's row came before: no other prompt of the write is visible to a reference
  // either way (its row had no version yet), and the label rules ask only its space.
  // Every prompt goes to the same place, so a label allowed once is allowed for all of them: asked
  // once per label, not once per prompt (an import may carry 10,000 prompts with the same labels).
  const allowedLabels = new Set<string>()
  for (const input of inputs) {
    if (input.versions.length > PROMPT_LIMITS.versions) {
      throw new AppError('conflict', 'prompts.tooManyVersions', {
        params: { max: PROMPT_LIMITS.versions },
        reason: 'version_limit',
      })
    }
    if (input.forbiddenLabels === 'refuse') {
      const unasked = (input.labels ?? [])
        .map(([label]) => label)
        .filter((label) => !allowedLabels.has(label))
      await requireMayMove(tx, place, unasked, mover)
      for (const label of unasked) allowedLabels.add(label)
    }
    if (!input.deferReferenceCheck) {
      for (const version of input.versions) {
        await requireResolvableBody(tx, spaceOf(place), input, version.body)
      }
    }
  }
  const versionsOf = inputs.map((input) =>
    input.versions.map((version, number) => ({
      id: randomUUID(),
      versionNumber: number + 1,
      body: version.body,
    })),
  )
  // Whether the mover may move a label is the same for every prompt of one space.
  const mayMoveHere = labelMoverFor(tx, place, mover)
  /** Each prompt's labels placed, in order, and where each label ends (production: the current version). */
  const placements: {
    placed: [string, { id: string; versionNumber: number }][]
    held: Map<string, { id: string; versionNumber: number }>
    moves: { label: string; from: number | null; to: number }[]
  }[] = []
  for (const [index, input] of inputs.entries()) {
    const versions = versionsOf[index]!
    const placed: [string, { id: string; versionNumber: number }][] = []
    for (const [label, to] of input.labels ?? []) {
      const target = typeof to === 'number' ? versions[to]! : to
      const startsCurrent = label === PRODUCTION_LABEL && mover.kind === 'user'
      if (input.forbiddenLabels === 'refuse' || startsCurrent || (await mayMoveHere(label))) {
        placed.push([label, target])
      }
    }
    // The moves `placeLabel` makes on a prompt that had no label yet: a move onto where a label
    // already is is none.
    const held = new Map<string, { id: string; versionNumber: number }>()
    const moves: { label: string; from: number | null; to: number }[] = []
    for (const [label, target] of placed) {
      const from = held.get(label)
      if ((from?.id ?? null) === target.id) continue
      held.set(label, target)
      moves.push({ label, from: from?.versionNumber ?? null, to: target.versionNumber })
    }
    placements.push({ placed, held, moves })
  }
  const promptIds = inputs.map(() => randomUUID())
  await tx.execute(sql`SET CONSTRAINTS prompt_versions_prompt_id_fkey DEFERRED`)
  // The one statement that inserts new prompts' versions (`insert(promptVersions)` below adds to
  // prompts that exist): the rows as one JSON parameter, each column as the table's default has it.
  await inStatements(
    inputs.flatMap((input, index) =>
      input.versions.map((version, number) => ({
        id: versionsOf[index]![number]!.id,
        prompt_id: promptIds[index],
        version_number: number + 1,
        body: version.body,
        config: version.config,
        variables: version.variables ?? null,
        changelog: version.changelog,
      })),
    ),
    (slice) =>
      tx.execute(sql`INSERT INTO prompt_versions
          (id, prompt_id, version_number, body, config, variables, changelog, created_by_user_id, created_by_api_key_id)
        SELECT r.id, r.prompt_id, r.version_number, r.body, r.config, coalesce(r.variables, '[]'::jsonb), r.changelog,
          ${userOf(mover)}, ${mover.kind === 'apiKey' ? mover.keyId : null}::uuid
        FROM ${jsonRecords(
          slice,
          'id uuid, prompt_id uuid, version_number integer, body text, config jsonb, variables jsonb, changelog text',
        )}`),
    (row) => row.body.length,
  )
  await inStatements(
    inputs.map((input, index) => ({
      id: promptIds[index],
      name: input.name,
      title: input.title,
      description: input.description ?? null,
      tags: input.tags,
      type: input.type,
      current_version_id: placements[index]!.held.get(PRODUCTION_LABEL)?.id ?? null,
    })),
    (slice) =>
      tx.execute(sql`INSERT INTO prompts
          (id, owner_user_id, name, title, description, tags, type, visibility, team_id, current_version_id)
        SELECT r.id, ${ownerUserId}, r.name, r.title, r.description,
          ARRAY(SELECT jsonb_array_elements_text(r.tags)), r.type, ${place.visibility}, ${place.teamId}::uuid,
          r.current_version_id
        FROM ${jsonRecords(
          slice,
          'id uuid, name text, title text, description text, tags jsonb, type text, current_version_id uuid',
        )}`),
  )
  await tx.execute(sql`SET CONSTRAINTS prompt_versions_prompt_id_fkey IMMEDIATE`)
  const byId = new Map<string, PromptRow>()
  await inStatements(promptIds, async (slice) => {
    for (const row of await tx.select(promptColumns).from(prompts).where(inArray(prompts.id, slice))) {
      byId.set(row.id, row)
    }
  })
  const created: PromptRow[] = promptIds.map((id) => byId.get(id)!)
  await recordDependencies(
    tx,
    created.flatMap((prompt, index) =>
      versionsOf[index]!.map((version) => ({ ...version, promptId: prompt.id })),
    ),
  )
  const events: WebhookEvent[] = []
  const labelRows: { prompt_id: string; label: string; version_id: string }[] = []
  const labelEventRows: Record<string, unknown>[] = []
  const audits: AuditEntryInput[] = []
  for (const [index, input] of inputs.entries()) {
    const prompt = created[index]!
    const versions = versionsOf[index]!
    const { placed, held, moves } = placements[index]!
    // The events the write makes, in order: the prompt with its first version, each further
    // version, each naming the labels it gets, then each label moved.
    for (const [number, version] of versions.entries()) {
      events.push({
        type: number === 0 ? 'prompt.created' : 'prompt.version.created',
        actor: eventActor(mover),
        data: {
          prompt: promptData(prompt),
          version: versionData({
            ...version,
            config: input.versions[number]!.config,
            changelog: input.versions[number]!.changelog,
            labels: [
              ...placed.filter(([, target]) => target.id === version.id).map(([label]) => label),
              ...(number === versions.length - 1 ? [LATEST_LABEL] : []),
            ],
          }),
        },
      })
    }
    for (const [later, move] of moves.entries()) {
      labelEventRows.push({
        prompt_id: prompt.id,
        label: move.label,
        from_version: move.from,
        to_version: move.to,
        // A new prompt has no earlier move: each later than the one before, as one statement each makes them.
        later,
      })
      events.push({
        type: 'prompt.label.moved',
        actor: eventActor(mover),
        data: {
          prompt: { id: prompt.id, name: prompt.name },
          label: move.label,
          fromVersion: move.from,
          toVersion: move.to,
        },
      })
    }
    for (const [label, target] of held) {
      if (label !== PRODUCTION_LABEL) labelRows.push({ prompt_id: prompt.id, label, version_id: target.id })
    }
    audits.push(
      promptCreatedEntry(
        prompt,
        versions.length,
        placed.map(([label]) => label),
      ),
    )
  }
  await inStatements(labelRows, (slice) =>
    tx.execute(sql`INSERT INTO prompt_labels (prompt_id, label, version_id)
      SELECT r.prompt_id, r.label, r.version_id FROM ${jsonRecords(slice, 'prompt_id uuid, label text, version_id uuid')}`),
  )
  await inStatements(labelEventRows, (slice) =>
    tx.execute(sql`INSERT INTO prompt_label_events
        (prompt_id, label, from_version, to_version, actor_user_id, api_key_id, created_at)
      SELECT r.prompt_id, r.label, r.from_version, r.to_version, ${userOf(mover)},
        ${mover.kind === 'apiKey' ? mover.keyId : null}::uuid, clock_timestamp() + r.later * interval '1 microsecond'
      FROM ${jsonRecords(slice, 'prompt_id uuid, label text, from_version integer, to_version integer, later integer')}`),
  )
  await enqueueEvents(tx, spaceOf(created[0]!), events)
  await recordAudits(tx, auditWhoOf(mover), audits)
  return created.map((prompt, index) => ({ prompt, versions: versionsOf[index]! }))
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
  return writeVersions(tx, mover, prompt, input)
}

export interface WrittenVersions {
  prompt: PromptRow
  versions: { id: string; versionNumber: number; body: string }[]
}

/** New versions and label moves of a prompt that exists (`createPrompts` writes a new one's). */
async function writeVersions(
  tx: Tx,
  mover: Principal,
  prompt: PromptRow,
  input: VersionsWrite,
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
  const keptVariables = await currentVariables(tx, prompt)
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
  const mayMoveHere = labelMoverFor(tx, prompt, mover)
  for (const [label, to] of wanted) {
    const target = typeof to === 'number' ? versions[to]! : to
    if (input.forbiddenLabels === 'refuse' || (await mayMoveHere(label))) {
      placed.push([label, target])
    }
  }
  // The events the write makes, in order: each new version, naming the labels it gets, then each
  // label moved.
  for (const [index, version] of versions.entries()) {
    await enqueueEvent(tx, spaceOf(prompt), {
      type: 'prompt.version.created',
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
  for (const [label, target] of placed) await placeLabel(tx, prompt, label, target, mover)
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
