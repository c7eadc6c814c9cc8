import { and, asc, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import type { AttachmentRef, addAttachmentInput, MessageAttachment } from '../../../domain/conversations.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Db, Tx } from '../../db/client.ts'
import { builtOnce } from '../../db/prepared.ts'
import { createdAfterAll } from '../../db/queries.ts'
import { conversationMessagePrompts, prompts, promptVersions } from '../../db/schema/index.ts'
import { findVisiblePrompt, promptNotFound, promptVisibleTo } from '../prompts/index.ts'
import { loadMessage, loadMessageForWrite } from './policy.ts'

export interface ResolvedRef {
  promptId: string
  promptVersionId: string | null
}

/**
 * Checks what is to be attached: each prompt must be visible to the actor (else 404 'Prompt not
 * found') and a named version must belong to that prompt (else 404 'Version not found'). "Latest"
 * stores no version. Repeated references collapse into one. Each prompt stays key-share locked
 * until the caller's transaction ends, so it cannot be deleted under the new reference.
 */
export async function resolveAttachmentRefs(
  tx: Tx,
  actor: Actor,
  refs: AttachmentRef[],
): Promise<ResolvedRef[]> {
  const unique = new Map<string, ResolvedRef>()
  for (const ref of refs) {
    const resolved = { promptId: ref.promptId, promptVersionId: ref.promptVersionId ?? null }
    unique.set(`${resolved.promptId}|${resolved.promptVersionId}`, resolved)
  }
  for (const ref of unique.values()) {
    if (!(await findVisiblePrompt(tx, actor, ref.promptId, { keyShare: true }))) throw promptNotFound()
    if (ref.promptVersionId) {
      const [version] = await tx
        .select({ id: promptVersions.id })
        .from(promptVersions)
        .where(and(eq(promptVersions.id, ref.promptVersionId), eq(promptVersions.promptId, ref.promptId)))
      if (!version) throw new AppError('not_found', 'prompts.versionNotFound')
    }
  }
  return [...unique.values()]
}

/** The select behind `attachmentsOf`, with placeholders for the viewer and the ids (`builtOnce`). */
const attachmentsStatement = builtOnce((db) => {
  // Conversations are not for keys: the viewer's teams are always within reach.
  const visible = promptVisibleTo(sql.placeholder('viewer'), sql.placeholder('viewer'))
  const whenVisible = <T>(value: unknown) => sql<T>`CASE WHEN ${visible} THEN ${value} END`
  return (
    db
      .select({
        id: conversationMessagePrompts.id,
        messageId: conversationMessagePrompts.messageId,
        promptId: whenVisible<string | null>(conversationMessagePrompts.promptId),
        promptVersionId: whenVisible<string | null>(conversationMessagePrompts.promptVersionId),
        title: whenVisible<string | null>(prompts.title),
        versionNumber: promptVersions.versionNumber,
        attachedByUserId: conversationMessagePrompts.attachedByUserId,
        notes: conversationMessagePrompts.notes,
        createdAt: conversationMessagePrompts.createdAt,
      })
      .from(conversationMessagePrompts)
      .innerJoin(prompts, eq(prompts.id, conversationMessagePrompts.promptId))
      .leftJoin(promptVersions, eq(promptVersions.id, conversationMessagePrompts.promptVersionId))
      // One array parameter, not one parameter per message.
      .where(sql`${conversationMessagePrompts.messageId} = ANY(${sql.placeholder('messageIds')}::uuid[])`)
      .orderBy(asc(conversationMessagePrompts.createdAt), asc(conversationMessagePrompts.id))
      .prepare('')
  )
})

/**
 * The attachments of the given messages, oldest first, with the prompt's title and the version's
 * number. A prompt the viewer may not (or no longer) see keeps its place and version number, but
 * neither its title nor its ids.
 */
export async function attachmentsOf(
  db: Db | Tx,
  actor: Actor,
  messageIds: string[],
): Promise<Map<string, MessageAttachment[]>> {
  const byMessage = new Map<string, MessageAttachment[]>()
  if (messageIds.length === 0) return byMessage
  const rows = await attachmentsStatement(db, undefined).execute({ viewer: actor.id, messageIds })
  for (const row of rows) {
    const list = byMessage.get(row.messageId) ?? []
    list.push({ ...row, createdAt: row.createdAt.toISOString() })
    byMessage.set(row.messageId, list)
  }
  return byMessage
}

/** "list by message id". */
export async function listAttachments(db: Db, actor: Actor, messageId: string): Promise<MessageAttachment[]> {
  await loadMessage(db, actor, messageId)
  return (await attachmentsOf(db, actor, [messageId])).get(messageId) ?? []
}

/** Attaches a prompt (a version, or latest) to a message its author or a moderator may change. */
export async function addAttachment(
  db: Db,
  actor: Actor,
  messageId: string,
  input: z.output<typeof addAttachmentInput>,
): Promise<MessageAttachment> {
  return db.transaction(async (tx) => {
    await loadMessageForWrite(tx, actor, messageId, 'conversations.attachForbidden')
    const [ref] = await resolveAttachmentRefs(tx, actor, [input])
    const [created] = await tx
      .insert(conversationMessagePrompts)
      .values({
        messageId,
        promptId: ref!.promptId,
        promptVersionId: ref!.promptVersionId,
        attachedByUserId: actor.id,
        notes: input.notes,
        createdAt: createdAfterAll(
          conversationMessagePrompts.createdAt,
          conversationMessagePrompts.messageId,
          messageId,
        ),
      })
      .onConflictDoNothing()
      .returning({ id: conversationMessagePrompts.id })
    if (!created) throw new AppError('conflict', 'conversations.alreadyAttached')
    const attachment = (await attachmentsOf(tx, actor, [messageId]))
      .get(messageId)
      ?.find((a) => a.id === created.id)
    return attachment!
  })
}

export async function removeAttachment(
  db: Db,
  actor: Actor,
  messageId: string,
  attachmentId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await loadMessageForWrite(tx, actor, messageId, 'conversations.removeAttachmentForbidden')
    const deleted = await tx
      .delete(conversationMessagePrompts)
      .where(
        and(
          eq(conversationMessagePrompts.id, attachmentId),
          eq(conversationMessagePrompts.messageId, messageId),
        ),
      )
      .returning({ id: conversationMessagePrompts.id })
    if (deleted.length === 0) throw new AppError('not_found', 'conversations.attachmentNotFound')
  })
}
