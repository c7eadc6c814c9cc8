import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import { CONVERSATION_SNAPSHOT_SIZE } from '../../../domain/constants.ts'
import type {
  appendMessageInput,
  listMessagesQuery,
  Message,
  updateMessageInput,
} from '../../../domain/conversations.ts'
import { decodeCursor, type Page } from '../../../domain/cursor.ts'
import { AppError } from '../../../domain/errors.ts'
import { conversationSpace, enqueueEvent, eventActor } from '../../core/events.ts'
import type { Db, Tx } from '../../db/client.ts'
import { builtOnce } from '../../db/prepared.ts'
import {
  afterCursor,
  createdAfterAll,
  cursorTimestamp,
  isoOfCursorTimestamp,
  isoTimestampText,
  type Param,
  toPage,
} from '../../db/queries.ts'
import {
  conversationMessagePrompts,
  conversationMessages,
  conversations,
  teamMembers,
  users,
} from '../../db/schema/index.ts'
import { attachmentsColumn, resolveAttachmentRefs } from './attachments.ts'
import { checkedAccess, loadConversation, loadMessageForWrite, viewerMembership } from './policy.ts'

/**
 * A message's columns as the answer carries them: the text out of the content, the update time as
 * the API's text (`isoTimestampText`), the creation time as the cursor's key, which also gives its
 * API text (`isoOfCursorTimestamp`), and its attachments as `viewer` may see them
 * (`attachmentsColumn`). The expressions carry aliases, which a subquery's fields need.
 */
function selectMessages(
  db: Db | Tx,
  viewer: Param<string>,
  where: SQL | undefined,
  order: 'asc' | 'desc',
  limit: Param<number>,
) {
  const direction = order === 'asc' ? asc : desc
  return db
    .select({
      id: conversationMessages.id,
      conversationId: conversationMessages.conversationId,
      createdByUserId: conversationMessages.createdByUserId,
      authorEmail: users.email,
      role: conversationMessages.role,
      // The content's text is always there (conversation_messages_content_text_check).
      text: sql<string>`${conversationMessages.content} ->> 'text'`.as('text'),
      model: conversationMessages.model,
      tokenCount: conversationMessages.tokenCount,
      updatedAt: isoTimestampText(conversationMessages.updatedAt).as('updatedAt'),
      cursorAt: cursorTimestamp(conversationMessages.createdAt).as('cursorAt'),
      attachments: attachmentsColumn(viewer, conversationMessages.id).as('attachments'),
    })
    .from(conversationMessages)
    .leftJoin(users, eq(users.id, conversationMessages.createdByUserId))
    .where(where)
    .orderBy(direction(conversationMessages.createdAt), direction(conversationMessages.id))
    .limit(limit)
}

type MessageRow = Awaited<ReturnType<typeof selectMessages>>[number]

/** Shared by every message without attachments (most): only ever serialized, never changed. */
const NO_ATTACHMENTS = Object.freeze([]) as unknown as Message['attachments']

/** A message as the API answers it. */
function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    conversationId: row.conversationId,
    createdByUserId: row.createdByUserId,
    authorEmail: row.authorEmail,
    role: row.role,
    content: { text: row.text },
    model: row.model,
    tokenCount: row.tokenCount,
    createdAt: isoOfCursorTimestamp(row.cursorAt),
    updatedAt: row.updatedAt,
    attachments: row.attachments ?? NO_ATTACHMENTS,
  }
}

async function messageById(db: Db | Tx, actor: Actor, messageId: string): Promise<Message> {
  const [row] = await selectMessages(db, actor.id, eq(conversationMessages.id, messageId), 'asc', 1)
  if (!row) throw new AppError('not_found', 'conversations.messageNotFound')
  return toMessage(row)
}

/**
 * A messages page for one order, with or without a cursor (`builtOnce`), beside what the access
 * checks read of its conversation: one statement, where reading the conversation first took a round
 * trip of its own. The page is a lateral join, so a conversation whose page is empty is one row with
 * the messages' columns null, and a missing one no row.
 */
const messagesStatement = builtOnce(
  (db, shape: { order: 'asc' | 'desc'; cursor: boolean }) => {
    const viewer = sql.placeholder('viewer')
    const page = selectMessages(
      db,
      viewer,
      and(
        eq(conversationMessages.conversationId, conversations.id),
        shape.cursor
          ? afterCursor(
              { column: conversationMessages.createdAt, kind: 'timestamp' },
              conversationMessages.id,
              { at: sql.placeholder('cursorAt'), id: sql.placeholder('cursorId') },
              shape.order,
            )
          : undefined,
      ),
      shape.order,
      sql.placeholder('limit'),
    ).as('page')
    const direction = shape.order === 'asc' ? asc : desc
    return (
      db
        .select({
          conversationTeamId: conversations.teamId,
          conversationOwnerUserId: conversations.ownerUserId,
          viewerTeamRole: teamMembers.role,
          id: page.id,
          conversationId: page.conversationId,
          createdByUserId: page.createdByUserId,
          authorEmail: page.authorEmail,
          role: page.role,
          text: page.text,
          model: page.model,
          tokenCount: page.tokenCount,
          updatedAt: page.updatedAt,
          cursorAt: page.cursorAt,
          attachments: page.attachments,
        })
        // drizzle writes the page's aliased expressions (text, updatedAt, cursorAt, attachments)
        // by their alias alone: no column of conversations or team_members may take those names.
        .from(conversations)
        .leftJoin(teamMembers, viewerMembership(viewer))
        .leftJoinLateral(page, sql`true`)
        .where(eq(conversations.id, sql.placeholder('conversationId')))
        // The page's own order, which a join need not keep: the cursor's text sorts as its time
        // byte by byte (fixed width, UTC), not by the database's collation.
        .orderBy(direction(sql`${page.cursorAt} COLLATE "C"`), direction(page.id))
        // Named: one conversation's index range in its order, whatever the values (decision 0278).
        .prepare(`promptfolio_messages_page_${shape.order}${+shape.cursor}`)
    )
  },
  (shape) => `${shape.order}:${+shape.cursor}`,
)

/**
 * Messages list, by keyset on `(created_at, id)`: ascending (the spec's order), or descending so
 * a screen can open at the newest messages and page back. Each message carries its attachments.
 */
export async function listMessages(
  db: Db,
  actor: Actor,
  conversationId: string,
  query: z.output<typeof listMessagesQuery>,
): Promise<Page<Message>> {
  const cursor = query.cursor ? decodeCursor(query.cursor, 'timestamp') : undefined
  const rows = await messagesStatement(db, { order: query.order, cursor: cursor !== undefined }).execute({
    viewer: actor.id,
    conversationId,
    cursorAt: cursor?.at,
    cursorId: cursor?.id,
    limit: query.limit + 1,
  })
  const [first] = rows
  checkedAccess(
    actor,
    first && {
      teamId: first.conversationTeamId,
      ownerUserId: first.conversationOwnerUserId,
      teamRole: first.viewerTeamRole,
    },
  )
  // An empty page is the conversation's row alone, its messages' columns null.
  const messages = rows.filter((row): row is typeof row & MessageRow => row.id !== null)
  return toPage(messages, query.limit, (row) => row.cursorAt, toMessage)
}

/**
 * Writes the conversation's snapshot (its last 10 messages as role/content, oldest first, or `{}`
 * when it has none) and marks it as updated. Called in the transaction of every message write.
 */
export async function refreshSnapshot(tx: Tx, conversationId: string): Promise<void> {
  await tx.execute(sql`
    UPDATE conversations SET updated_at = now(), content = (
      SELECT CASE WHEN count(*) = 0 THEN '{}'::jsonb ELSE jsonb_build_object('messages',
        jsonb_agg(jsonb_build_object('role', last.role, 'content', last.content ->> 'text')
          ORDER BY last.created_at, last.id)) END
      FROM (SELECT role, content, created_at, id FROM conversation_messages
            WHERE conversation_id = ${conversationId}
            ORDER BY created_at DESC, id DESC LIMIT ${CONVERSATION_SNAPSHOT_SIZE}) last)
    WHERE id = ${conversationId}`)
}

/**
 * Appends a message with its attachments and refreshes the snapshot, in one transaction. The
 * conversation's row lock is taken first, so appends to one conversation are serialized and a
 * message's `created_at` (`createdAfterAll`, read after the lock) is later than that of every message
 * committed before it: a reader paging by `(created_at, id)` never misses a message that commits after
 * it read a later one.
 */
export async function appendMessage(
  db: Db,
  actor: Actor,
  conversationId: string,
  input: z.output<typeof appendMessageInput>,
): Promise<Message> {
  return db.transaction((tx) => appendMessageIn(tx, actor, conversationId, input))
}

/** `appendMessage` inside the caller's transaction (a generated reply also records its model). */
export async function appendMessageIn(
  tx: Tx,
  actor: Actor,
  conversationId: string,
  input: z.output<typeof appendMessageInput>,
): Promise<Message> {
  const conversation = await loadConversation(tx, actor, conversationId, { lock: true })
  const refs = await resolveAttachmentRefs(tx, actor, input.attachments)
  const [message] = await tx
    .insert(conversationMessages)
    .values({
      conversationId,
      createdByUserId: actor.id,
      role: input.role,
      content: input.content,
      model: input.model,
      tokenCount: input.tokenCount,
      createdAt: createdAfterAll(
        conversationMessages.createdAt,
        conversationMessages.conversationId,
        conversationId,
      ),
    })
    .returning({ id: conversationMessages.id })
  // One insert each, so they keep the order in which they were picked.
  for (const ref of refs) {
    await tx.insert(conversationMessagePrompts).values({
      messageId: message!.id,
      promptId: ref.promptId,
      promptVersionId: ref.promptVersionId,
      attachedByUserId: actor.id,
      createdAt: createdAfterAll(
        conversationMessagePrompts.createdAt,
        conversationMessagePrompts.messageId,
        message!.id,
      ),
    })
  }
  await refreshSnapshot(tx, conversationId)
  const appended = await messageById(tx, actor, message!.id)
  await enqueueEvent(tx, conversationSpace(conversation.row), {
    type: 'conversation.message.created',
    actor: eventActor(actor),
    data: {
      conversation: { id: conversationId, title: conversation.row.title },
      message: appended,
    },
  })
  return appended
}

/** Update (content, role). Unchanged text and role save nothing. */
export async function updateMessage(
  db: Db,
  actor: Actor,
  messageId: string,
  input: z.output<typeof updateMessageInput>,
): Promise<Message> {
  return db.transaction(async (tx) => {
    const { message } = await loadMessageForWrite(tx, actor, messageId, 'conversations.messageForbidden')
    const text = input.content?.text ?? message.text
    const role = input.role ?? message.role
    if (text !== message.text || role !== message.role) {
      await tx
        .update(conversationMessages)
        .set({ content: { text }, role, updatedAt: sql`clock_timestamp()` })
        .where(eq(conversationMessages.id, messageId))
      await refreshSnapshot(tx, message.conversationId)
    }
    return messageById(tx, actor, messageId)
  })
}

export async function deleteMessage(db: Db, actor: Actor, messageId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { message } = await loadMessageForWrite(tx, actor, messageId, 'conversations.messageForbidden')
    await tx.delete(conversationMessages).where(eq(conversationMessages.id, messageId))
    await refreshSnapshot(tx, message.conversationId)
  })
}
