import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Actor } from '../../../domain/auth.ts'
import type { ConversationAccess } from '../../../domain/conversations.ts'
import { AppError } from '../../../domain/errors.ts'
import type { MessageKey } from '../../../domain/messages/index.ts'
import { canChangeMessage, conversationAccess } from '../../../domain/permissions.ts'
import type { Db, Tx } from '../../db/client.ts'
import { builtOnce } from '../../db/prepared.ts'
import { isoTimestampText, type Param, teamsOf } from '../../db/queries.ts'
import { conversationMessages, conversations, teamMembers, teams } from '../../db/schema/index.ts'

type Viewer = Pick<Actor, 'id' | 'globalRole'>

/**
 * The conversations `actor` owns: personal ones, and team ones while the actor is still in the team
 * (decision 0008: a former member's stay with the team).
 */
export function conversationOwnedBy(viewerId: Param<string>): SQL {
  return and(
    eq(conversations.ownerUserId, viewerId),
    or(isNull(conversations.teamId), inArray(conversations.teamId, teamsOf(viewerId))),
  )!
}

/**
 * The conversations `actor` may see (the same rule as `conversationAccess(...).canView`): own
 * personal ones, those of the actor's teams, all for a global admin.
 */
export function conversationVisibleTo(actor: Viewer): SQL {
  if (actor.globalRole === 'global_admin') return sql`true`
  return or(
    and(isNull(conversations.teamId), eq(conversations.ownerUserId, actor.id)),
    inArray(conversations.teamId, teamsOf(actor.id)),
  )!
}

/**
 * What a conversation's summary is read from (joined with its team for the name), its times as
 * the API's text (`isoTimestampText`).
 */
export const conversationSummaryColumns = {
  id: conversations.id,
  title: conversations.title,
  teamId: conversations.teamId,
  teamName: teams.name,
  ownerUserId: conversations.ownerUserId,
  tags: conversations.tags,
  createdAt: isoTimestampText(conversations.createdAt),
  updatedAt: isoTimestampText(conversations.updatedAt),
}

/**
 * A conversation with the viewer's role in its team; `extra` adds columns. The access checks read
 * no more than the summary: the snapshot (`content`, up to 10 messages) only serves the answers
 * that show it (`readConversation`).
 */
function selectConversation<Extra extends Record<string, PgColumn>>(
  db: Db | Tx,
  viewerId: Param<string>,
  extra: Extra,
) {
  return db
    .select({ ...conversationSummaryColumns, ...extra, teamRole: teamMembers.role })
    .from(conversations)
    .leftJoin(teams, eq(teams.id, conversations.teamId))
    .leftJoin(teamMembers, viewerMembership(viewerId))
    .$dynamic()
}

/**
 * The join of a conversation with the viewer's membership of its team (`teamMembers`), whose role
 * the access checks read (`checkedAccess`).
 */
export function viewerMembership(viewerId: Param<string>): SQL {
  return and(eq(teamMembers.teamId, conversations.teamId), eq(teamMembers.userId, viewerId))!
}

/**
 * A conversation by id without a lock, with placeholders (`builtOnce`). Named (`name`, one per
 * select): a row by its primary key has one plan whatever the values, and planning such a statement
 * anew cost PostgreSQL more than running it (decision 0278).
 */
function conversationById<Extra extends Record<string, PgColumn>>(name: string, extra: Extra) {
  return builtOnce((db) =>
    selectConversation(db, sql.placeholder('viewer'), extra)
      .where(eq(conversations.id, sql.placeholder('conversationId')))
      .prepare(name),
  )
}

/**
 * A conversation by id without a lock, with what the access checks read (and its title): neither
 * the team's name nor the times, which only the answers that show a conversation need.
 */
const conversationStatement = builtOnce((db) =>
  db
    .select({
      id: conversations.id,
      title: conversations.title,
      teamId: conversations.teamId,
      ownerUserId: conversations.ownerUserId,
      teamRole: teamMembers.role,
    })
    .from(conversations)
    .leftJoin(teamMembers, viewerMembership(sql.placeholder('viewer')))
    .where(eq(conversations.id, sql.placeholder('conversationId')))
    .prepare('promptfolio_conversation_access'),
)
const conversationWithContentStatement = conversationById('promptfolio_conversation_with_content', {
  content: conversations.content,
  modelProviderId: conversations.modelProviderId,
  model: conversations.model,
})

export type ConversationRow = Awaited<ReturnType<ReturnType<typeof conversationStatement>['execute']>>[number]

export interface LoadedConversation {
  row: ConversationRow
  access: ConversationAccess
}

/**
 * Loads a conversation with the actor's rights in it; a missing one and one the actor may not see
 * are the same 404. `lock` takes the row lock that serializes writes to one conversation (see
 * appendMessage): call it inside the transaction that writes.
 */
export async function loadConversation(
  db: Db | Tx,
  actor: Viewer,
  conversationId: string,
  options: { lock?: boolean } = {},
): Promise<LoadedConversation> {
  const [row] = options.lock
    ? await selectConversation(db, actor.id, {})
        .where(eq(conversations.id, conversationId))
        .for('update', { of: conversations })
    : await conversationStatement(db, undefined).execute({ viewer: actor.id, conversationId })
  return checkedAccess(actor, row)
}

/** `loadConversation` with the snapshot, for the answers that carry the whole conversation. */
export async function readConversation(db: Db | Tx, actor: Viewer, conversationId: string) {
  const [row] = await conversationWithContentStatement(db, undefined).execute({
    viewer: actor.id,
    conversationId,
  })
  return checkedAccess(actor, row)
}

/**
 * The viewer's rights in a conversation read with `viewerMembership`; a missing one and one the
 * viewer may not see are the same 404.
 */
export function checkedAccess<Row extends Pick<ConversationRow, 'ownerUserId' | 'teamId' | 'teamRole'>>(
  actor: Viewer,
  row: Row | undefined,
) {
  if (!row) throw new AppError('not_found', 'conversations.notFound')
  const { canView, ...access } = conversationAccess(actor, row, row.teamRole)
  if (!canView) throw new AppError('not_found', 'conversations.notFound')
  return { row, access }
}

export function requireManage(conversation: LoadedConversation) {
  if (!conversation.access.canManage) throw new AppError('forbidden', 'conversations.manageForbidden')
}

export interface LoadedMessage {
  message: Awaited<ReturnType<typeof findMessage>>
  conversation: LoadedConversation
}

async function findMessage(db: Db | Tx, messageId: string) {
  const [row] = await db
    .select({
      id: conversationMessages.id,
      conversationId: conversationMessages.conversationId,
      createdByUserId: conversationMessages.createdByUserId,
      role: conversationMessages.role,
      text: sql<string>`${conversationMessages.content} ->> 'text'`,
    })
    .from(conversationMessages)
    .where(eq(conversationMessages.id, messageId))
  if (!row) throw new AppError('not_found', 'conversations.messageNotFound')
  return row
}

/** A message and its conversation, if the actor may see them; else 404 'Message not found'. */
export async function loadMessage(
  db: Db | Tx,
  actor: Viewer,
  messageId: string,
  options: { lock?: boolean } = {},
): Promise<LoadedMessage> {
  const found = await findMessage(db, messageId)
  let conversation: LoadedConversation
  try {
    conversation = await loadConversation(db, actor, found.conversationId, options)
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') {
      throw new AppError('not_found', 'conversations.messageNotFound')
    }
    throw error
  }
  // With the lock held, read again: the message may have changed or gone in the meantime.
  const message = options.lock ? await findMessage(db, messageId) : found
  return { message, conversation }
}

/**
 * Inside a write transaction: the message with its conversation row-locked, when the actor may
 * change it (author or moderator); else 403 with `forbidden`.
 */
export async function loadMessageForWrite(
  tx: Tx,
  actor: Viewer,
  messageId: string,
  forbidden: MessageKey,
): Promise<LoadedMessage> {
  const loaded = await loadMessage(tx, actor, messageId, { lock: true })
  if (!canChangeMessage(loaded.conversation.access, actor.id, loaded.message)) {
    throw new AppError('forbidden', forbidden)
  }
  return loaded
}
