import { type AnyColumn, and, eq, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import type { AttachmentRef, addAttachmentInput, MessageAttachment } from '../../../domain/conversations.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Db, Tx } from '../../db/client.ts'
import { handWrittenOnce } from '../../db/prepared.ts'
import { createdAfterAll, isoTimestampText, type Param } from '../../db/queries.ts'
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

/**
 * The attachments of one message (`messageId`: the enclosing select's message column, or a value),
 * oldest first, as the JSON the API answers, or null when it has none: with the prompt's title and
 * the version's number. A prompt the viewer may not (or no longer) see keeps its place and version
 * number, but neither its title nor its ids. A column of the message's own select: a messages page
 * comes with its attachments in one statement, where a second one cost PostgreSQL more than the page.
 */
export function attachmentsColumn(
  viewer: Param<string>,
  messageId: AnyColumn | Param<string>,
): SQL<MessageAttachment[] | null> {
  // Conversations are not for keys: the viewer's teams are always within reach.
  const visible = promptVisibleTo(viewer, viewer)
  const whenVisible = (value: AnyColumn) => sql`CASE WHEN ${visible} THEN ${value} END`
  const a = conversationMessagePrompts
  // Keys in the order of messageAttachmentSchema; json (not jsonb) keeps them so.
  const subquery = sql`(SELECT json_agg(json_build_object(
      'id', ${a.id},
      'messageId', ${a.messageId},
      'promptId', ${whenVisible(a.promptId)},
      'promptVersionId', ${whenVisible(a.promptVersionId)},
      'title', ${whenVisible(prompts.title)},
      'versionNumber', ${promptVersions.versionNumber},
      'attachedByUserId', ${a.attachedByUserId},
      'notes', ${a.notes},
      'createdAt', ${isoTimestampText(a.createdAt)}
    ) ORDER BY ${a.createdAt}, ${a.id})
    FROM ${a}
    JOIN ${prompts} ON ${prompts.id} = ${a.promptId}
    LEFT JOIN ${promptVersions} ON ${promptVersions.id} = ${a.promptVersionId}
    WHERE ${a.messageId} = ${messageId})`
  // Wrapped: a one-table select writes the columns of its fields' own chunks without their table,
  // and this subquery's columns must keep theirs (its tables have an `id` each).
  return sql`${subquery}`
}

const attachmentsStatement = handWrittenOnce<{ attachments: MessageAttachment[] | null }>(
  sql`SELECT ${attachmentsColumn(sql.placeholder('viewer'), sql.placeholder('messageId'))} AS attachments`,
)

/** One message's attachments (`attachmentsColumn`), for an answer that has no message select. */
async function attachmentsOf(db: Db | Tx, actor: Actor, messageId: string): Promise<MessageAttachment[]> {
  const [row] = await attachmentsStatement(db, { viewer: actor.id, messageId })
  return row?.attachments ?? []
}

/** "list by message id". */
export async function listAttachments(db: Db, actor: Actor, messageId: string): Promise<MessageAttachment[]> {
  await loadMessage(db, actor, messageId)
  return attachmentsOf(db, actor, messageId)
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
    const attachment = (await attachmentsOf(tx, actor, messageId)).find((a) => a.id === created.id)
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
