import { and, desc, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import type { Page } from '../../../domain/cursor.ts'
import { AppError } from '../../../domain/errors.ts'
import { isUuid } from '../../../domain/ids.ts'
import { LABEL_PATTERN, type LabelEvent, type setLabelInput } from '../../../domain/prompt-names.ts'
import type { listVersionsQuery, PromptDetail } from '../../../domain/prompts.ts'
import { principalOf } from '../../core/principal.ts'
import { authorizeTeam } from '../../core/team-access.ts'
import type { Db } from '../../db/client.ts'
import { cursorTimestamp, pageCondition, toPage } from '../../db/queries.ts'
import {
  apiKeys,
  promptLabelEvents,
  promptVersions,
  teamProtectedLabels,
  users,
} from '../../db/schema/index.ts'
import { findVisiblePrompt, lockVisiblePrompt, promptNotFound } from './access.ts'
import { requirePromptAccess } from './policy.ts'
import { findVersion, getPromptDetail } from './service.ts'
import * as writes from './writes.ts'

/** Put a label on a version, from the detail page (the owner; protected labels: team admins too). */
export async function setLabel(
  db: Db,
  actor: Actor,
  promptId: string,
  input: z.output<typeof setLabelInput>,
): Promise<PromptDetail> {
  await db.transaction(async (tx) => {
    const prompt = await lockVisiblePrompt(tx, actor, promptId)
    requirePromptAccess(actor, prompt, 'setCurrent')
    const version = await findVersion(tx, promptId, input.versionId)
    await writes.moveLabels(tx, principalOf(actor), prompt, [[input.label, version]])
  })
  return getPromptDetail(db, actor, promptId)
}

/** Take a label off the prompt (no version holds it afterwards). */
export async function removeLabel(db: Db, actor: Actor, promptId: string, label: string): Promise<void> {
  await db.transaction(async (tx) => {
    const prompt = await lockVisiblePrompt(tx, actor, promptId)
    requirePromptAccess(actor, prompt, 'setCurrent')
    if (!LABEL_PATTERN.test(label))
      throw new AppError('not_found', 'prompts.labelNotSet', { params: { label } })
    await writes.moveLabels(tx, principalOf(actor), prompt, [[label, null]])
  })
}

/** The label history, newest first, a page at a time. */
export async function labelHistory(
  db: Db,
  actor: Actor,
  promptId: string,
  query: z.output<typeof listVersionsQuery>,
): Promise<Page<LabelEvent>> {
  const prompt = await findVisiblePrompt(db, actor, promptId)
  if (!prompt) throw promptNotFound()
  const rows = await db
    .select({
      id: promptLabelEvents.id,
      label: promptLabelEvents.label,
      fromVersion: promptLabelEvents.fromVersion,
      toVersion: promptLabelEvents.toVersion,
      actorUserId: promptLabelEvents.actorUserId,
      // The same rule as a prompt's owner: the viewer, or someone in the prompt's team with them.
      actorEmail: sql<string | null>`CASE WHEN ${promptLabelEvents.actorUserId} = ${actor.id} OR (
          EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = ${prompt.teamId} AND o.user_id = ${promptLabelEvents.actorUserId})
          AND EXISTS (SELECT 1 FROM team_members v WHERE v.team_id = ${prompt.teamId} AND v.user_id = ${actor.id})
        ) THEN ${users.email} END`,
      apiKeyName: apiKeys.name,
      createdAt: promptLabelEvents.createdAt,
      cursorAt: cursorTimestamp(promptLabelEvents.createdAt),
    })
    .from(promptLabelEvents)
    .leftJoin(users, eq(users.id, promptLabelEvents.actorUserId))
    .leftJoin(apiKeys, eq(apiKeys.id, promptLabelEvents.apiKeyId))
    .where(
      and(
        eq(promptLabelEvents.promptId, promptId),
        pageCondition(
          { column: promptLabelEvents.createdAt, kind: 'timestamp' },
          promptLabelEvents.id,
          query.cursor,
        ),
      ),
    )
    .orderBy(desc(promptLabelEvents.createdAt), desc(promptLabelEvents.id))
    .limit(query.limit + 1)
  return toPage(
    rows,
    query.limit,
    (row) => row.cursorAt,
    ({ cursorAt: _, ...row }) => ({ ...row, createdAt: row.createdAt.toISOString() }),
  )
}

/** One click: the label of a history entry goes back to the version it left (or off again). */
export async function revertLabelEvent(
  db: Db,
  actor: Actor,
  promptId: string,
  eventId: string,
): Promise<PromptDetail> {
  await db.transaction(async (tx) => {
    const prompt = await lockVisiblePrompt(tx, actor, promptId)
    requirePromptAccess(actor, prompt, 'setCurrent')
    if (!isUuid(eventId)) throw new AppError('not_found', 'prompts.labelEventNotFound')
    const [event] = await tx
      .select()
      .from(promptLabelEvents)
      .where(and(eq(promptLabelEvents.id, eventId), eq(promptLabelEvents.promptId, promptId)))
    if (!event) throw new AppError('not_found', 'prompts.labelEventNotFound')
    let target: { id: string; versionNumber: number } | null = null
    if (event.fromVersion !== null) {
      const [version] = await tx
        .select({ id: promptVersions.id, versionNumber: promptVersions.versionNumber })
        .from(promptVersions)
        .where(
          and(eq(promptVersions.promptId, promptId), eq(promptVersions.versionNumber, event.fromVersion)),
        )
      if (!version) throw new AppError('conflict', 'prompts.labelRevertUnavailable')
      target = version
    }
    await writes.moveLabels(tx, principalOf(actor), prompt, [[event.label, target]])
  })
  return getPromptDetail(db, actor, promptId)
}

export async function listProtectedLabels(db: Db, actor: Actor, teamId: string): Promise<Page<string>> {
  await authorizeTeam(db, actor, teamId, 'view_team_data')
  const rows = await db
    .select({ label: teamProtectedLabels.label })
    .from(teamProtectedLabels)
    .where(eq(teamProtectedLabels.teamId, teamId))
    .orderBy(teamProtectedLabels.label)
  return { items: rows.map((row) => row.label), nextCursor: null }
}

/** Replaces the team's protected labels (team admins), in one transaction. */
export async function setProtectedLabels(
  db: Db,
  actor: Actor,
  teamId: string,
  labels: readonly string[],
): Promise<Page<string>> {
  await db.transaction(async (tx) => {
    await authorizeTeam(tx, actor, teamId, 'manage_team', { lock: true })
    await tx.delete(teamProtectedLabels).where(eq(teamProtectedLabels.teamId, teamId))
    if (labels.length > 0) {
      await tx.insert(teamProtectedLabels).values(labels.map((label) => ({ teamId, label })))
    }
  })
  return { items: [...labels], nextCursor: null }
}
