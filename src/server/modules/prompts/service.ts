import { and, desc, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import { AppError } from '../../../domain/errors.ts'
import { type Locale, translate } from '../../../domain/messages/index.ts'
import type {
  createPromptInput,
  PromptDetail,
  PromptVersion,
  PromptVisibility,
  updatePromptInput,
} from '../../../domain/prompts.ts'
import type { Db, Tx } from '../../db/client.ts'
import { conversationMessagePrompts, prompts, promptVersions } from '../../db/schema/index.ts'
import { roleInTeam } from '../teams/membership.ts'
import {
  findVisiblePrompt,
  lockVisiblePrompt,
  type PromptRow,
  promptNotFound,
  promptVisibleTo,
} from './access.ts'
import { mapPromptDbError } from './db-errors.ts'
import { canEditPrompt, requirePromptOwner } from './policy.ts'
import { selectSummaries, toSummary, toVersion } from './summaries.ts'

/** The acting user and the language their default changelogs are written in. */
export interface Actor {
  id: string
  locale: Locale
}

/** Version ids come from the caller; anything but a uuid cannot be one of ours. */
const isVersionId = (value: string) => z.uuid().safeParse(value).success
const versionNotFound = () => new AppError('not_found', 'prompts.versionNotFound')

async function versionsOf(db: Db | Tx, promptId: string): Promise<PromptVersion[]> {
  const rows = await db
    .select()
    .from(promptVersions)
    .where(eq(promptVersions.promptId, promptId))
    .orderBy(desc(promptVersions.versionNumber))
  return rows.map(toVersion)
}

/** The detail page's data: the prompt, all its versions (newest first), and whether the caller edits. */
export async function getPromptDetail(db: Db | Tx, userId: string, promptId: string): Promise<PromptDetail> {
  const [summary] = await selectSummaries(db, userId).where(
    and(eq(prompts.id, promptId), promptVisibleTo(userId)),
  )
  if (!summary) throw promptNotFound()
  return {
    prompt: toSummary(summary),
    versions: await versionsOf(db, promptId),
    canEdit: canEditPrompt(userId, summary),
  }
}

export async function listVersions(db: Db, userId: string, promptId: string): Promise<PromptVersion[]> {
  if (!(await findVisiblePrompt(db, userId, promptId))) throw promptNotFound()
  return versionsOf(db, promptId)
}

export async function getVersion(
  db: Db,
  userId: string,
  promptId: string,
  versionId: string,
): Promise<PromptVersion> {
  if (!(await findVisiblePrompt(db, userId, promptId))) throw promptNotFound()
  if (!isVersionId(versionId)) throw versionNotFound()
  const [row] = await db
    .select()
    .from(promptVersions)
    .where(and(eq(promptVersions.id, versionId), eq(promptVersions.promptId, promptId)))
  if (!row) throw versionNotFound()
  return toVersion(row)
}

async function currentVersionOf(tx: Tx, prompt: PromptRow) {
  if (!prompt.currentVersionId) return undefined
  const [row] = await tx
    .select({ versionNumber: promptVersions.versionNumber, body: promptVersions.body })
    .from(promptVersions)
    .where(eq(promptVersions.id, prompt.currentVersionId))
  return row
}

/** Team visibility needs one of the owner's teams; private prompts belong to no team. */
async function resolveSharing(
  tx: Tx,
  userId: string,
  visibility: PromptVisibility,
  teamId: string | null,
): Promise<{ visibility: PromptVisibility; teamId: string | null }> {
  if (visibility === 'private') return { visibility, teamId: null }
  if (!teamId) {
    throw new AppError('validation', 'prompts.teamRequired', { fields: { teamId: 'prompts.teamRequired' } })
  }
  if (!(await roleInTeam(tx, teamId, userId))) {
    throw new AppError('validation', 'prompts.notTeamMember', { fields: { teamId: 'prompts.notTeamMember' } })
  }
  return { visibility, teamId }
}

/** Create (§4): the prompt, version 1 ('Initial version') and its current version, in one transaction. */
export async function createPrompt(
  db: Db,
  actor: Actor,
  input: z.output<typeof createPromptInput>,
): Promise<PromptDetail> {
  const promptId = await db
    .transaction(async (tx) => {
      const sharing = await resolveSharing(tx, actor.id, input.visibility, input.teamId)
      const [prompt] = await tx
        .insert(prompts)
        .values({
          ownerUserId: actor.id,
          title: input.title,
          description: input.description,
          tags: input.tags,
          ...sharing,
        })
        .returning({ id: prompts.id })
      const [version] = await tx
        .insert(promptVersions)
        .values({
          promptId: prompt!.id,
          versionNumber: 1,
          body: input.body,
          changelog: translate(actor.locale, 'prompts.initialChangelog'),
          createdByUserId: actor.id,
        })
        .returning({ id: promptVersions.id })
      await tx.update(prompts).set({ currentVersionId: version!.id }).where(eq(prompts.id, prompt!.id))
      return prompt!.id
    })
    .catch(mapPromptDbError)
  return getPromptDetail(db, actor.id, promptId)
}

/**
 * Save (§4): update the metadata; when the trimmed body differs from the current version's, add
 * the next version (changelog or 'Updated prompt content') and make it current. One transaction,
 * holding the prompt's row lock, so concurrent saves queue up and number their versions 1, 2, 3...
 */
export async function savePrompt(
  db: Db,
  actor: Actor,
  promptId: string,
  input: z.output<typeof updatePromptInput>,
): Promise<PromptDetail> {
  await db
    .transaction(async (tx) => {
      const prompt = await lockVisiblePrompt(tx, actor.id, promptId)
      requirePromptOwner(actor.id, prompt)
      const current = await currentVersionOf(tx, prompt)
      if (input.baseVersionId !== undefined && input.baseVersionId !== prompt.currentVersionId) {
        throw new AppError('conflict', 'prompts.staleVersion', {
          params: { version: current?.versionNumber ?? '—' },
          reason: 'stale_version',
        })
      }
      const visibilityChanges = input.visibility !== undefined || input.teamId !== undefined
      const sharing = visibilityChanges
        ? await resolveSharing(
            tx,
            actor.id,
            input.visibility ?? prompt.visibility,
            input.teamId !== undefined ? input.teamId : prompt.teamId,
          )
        : {}
      let currentVersionId = prompt.currentVersionId
      if (input.body !== undefined && input.body !== current?.body) {
        // The row lock above makes this max + 1 safe: no other save of this prompt runs meanwhile.
        const [version] = await tx
          .insert(promptVersions)
          .values({
            promptId,
            versionNumber: sql`(SELECT coalesce(max(version_number), 0) + 1 FROM prompt_versions WHERE prompt_id = ${promptId})`,
            body: input.body,
            changelog: input.changelog ?? translate(actor.locale, 'prompts.updatedChangelog'),
            createdByUserId: actor.id,
          })
          .returning({ id: promptVersions.id })
        currentVersionId = version!.id
      }
      await tx
        .update(prompts)
        .set({
          ...(input.title !== undefined && { title: input.title }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.tags !== undefined && { tags: input.tags }),
          ...sharing,
          currentVersionId,
          updatedAt: sql`now()`,
        })
        .where(eq(prompts.id, promptId))
    })
    .catch(mapPromptDbError)
  return getPromptDetail(db, actor.id, promptId)
}

/** Set as Current (§4): the owner makes one of the prompt's versions current. */
export async function setCurrentVersion(
  db: Db,
  userId: string,
  promptId: string,
  versionId: string,
): Promise<PromptDetail> {
  await db.transaction(async (tx) => {
    const prompt = await lockVisiblePrompt(tx, userId, promptId)
    requirePromptOwner(userId, prompt)
    if (!isVersionId(versionId)) throw versionNotFound()
    const [version] = await tx
      .select({ id: promptVersions.id })
      .from(promptVersions)
      .where(and(eq(promptVersions.id, versionId), eq(promptVersions.promptId, promptId)))
    if (!version) throw versionNotFound()
    await tx
      .update(prompts)
      .set({ currentVersionId: version.id, updatedAt: sql`now()` })
      .where(eq(prompts.id, promptId))
  })
  return getPromptDetail(db, userId, promptId)
}

/** Delete (§7): its attachments, its versions, then the prompt, in one transaction. */
export async function deletePrompt(db: Db, userId: string, promptId: string): Promise<void> {
  await db
    .transaction(async (tx) => {
      const prompt = await lockVisiblePrompt(tx, userId, promptId)
      requirePromptOwner(userId, prompt, 'prompts.deleteForbidden')
      await tx.delete(conversationMessagePrompts).where(eq(conversationMessagePrompts.promptId, promptId))
      await tx.update(prompts).set({ currentVersionId: null }).where(eq(prompts.id, promptId))
      await tx.delete(promptVersions).where(eq(promptVersions.promptId, promptId))
      await tx.delete(prompts).where(eq(prompts.id, promptId))
    })
    .catch(mapPromptDbError)
}
