import { type SQL, sql } from 'drizzle-orm'
import type { CurrentUser } from '../../../domain/auth.ts'
import { canChangeMessage, conversationAccess } from '../../../domain/conversation-permissions.ts'
import type { ConversationAccess, MessageRole } from '../../../domain/conversations.ts'
import { AppError } from '../../../domain/errors.ts'
import type { MessageKey } from '../../../domain/messages/index.ts'
import type { TeamRole } from '../../../domain/team-permissions.ts'
import type { Db, Tx } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'

export type Actor = Pick<CurrentUser, 'id' | 'globalRole'>

export type ConversationRow = {
  id: string
  title: string
  team_id: string | null
  team_name: string | null
  owner_user_id: string
  tags: string[]
  content: Record<string, unknown>
  created_at: Date | string
  updated_at: Date | string
  team_role: TeamRole | null
}

export interface LoadedConversation {
  row: ConversationRow
  access: ConversationAccess
}

/**
 * The conversations `actor` may see, as a WHERE condition on alias `c` (the same rule as
 * `conversationAccess(...).canView`): own ones, those of the actor's teams, all for a global admin.
 */
export function conversationVisibleTo(actor: Actor): SQL {
  if (actor.globalRole === 'global_admin') return sql`true`
  return sql`(c.owner_user_id = ${actor.id}
    OR c.team_id IN (SELECT team_id FROM team_members WHERE user_id = ${actor.id}))`
}

/**
 * Loads a conversation with the actor's rights in it; a missing one and one the actor may not see
 * are the same 404. `lock` takes the row lock that serializes writes to one conversation (see
 * appendMessage): call it inside the transaction that writes.
 */
export async function loadConversation(
  db: Db | Tx,
  actor: Actor,
  conversationId: string,
  options: { lock?: boolean } = {},
): Promise<LoadedConversation> {
  const [row] = await queryRows<ConversationRow>(
    db,
    sql`SELECT c.id, c.title, c.team_id, t.name AS team_name, c.owner_user_id, c.tags, c.content,
          c.created_at, c.updated_at, m.role AS team_role
        FROM conversations c
        LEFT JOIN teams t ON t.id = c.team_id
        LEFT JOIN team_members m ON m.team_id = c.team_id AND m.user_id = ${actor.id}
        WHERE c.id = ${conversationId}
        ${options.lock ? sql`FOR UPDATE OF c` : sql``}`,
  )
  if (!row) throw new AppError('not_found', 'conversations.notFound')
  const { canView, ...access } = conversationAccess(
    actor,
    { ownerUserId: row.owner_user_id, teamId: row.team_id },
    row.team_role,
  )
  if (!canView) throw new AppError('not_found', 'conversations.notFound')
  return { row, access }
}

export function requireManage(conversation: LoadedConversation) {
  if (!conversation.access.canManage) throw new AppError('forbidden', 'conversations.manageForbidden')
}

export interface LoadedMessage {
  message: {
    id: string
    conversationId: string
    createdByUserId: string | null
    role: MessageRole
    text: string
  }
  conversation: LoadedConversation
}

async function findMessage(db: Db | Tx, messageId: string) {
  const [row] = await queryRows<{
    id: string
    conversation_id: string
    created_by_user_id: string | null
    role: MessageRole
    text: string
  }>(
    db,
    sql`SELECT id, conversation_id, created_by_user_id, role, content ->> 'text' AS text
        FROM conversation_messages WHERE id = ${messageId}`,
  )
  if (!row) throw new AppError('not_found', 'conversations.messageNotFound')
  return {
    id: row.id,
    conversationId: row.conversation_id,
    createdByUserId: row.created_by_user_id,
    role: row.role,
    text: row.text,
  }
}

/** A message and its conversation, if the actor may see them; else 404 'Message not found'. */
export async function loadMessage(
  db: Db | Tx,
  actor: Actor,
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
  actor: Actor,
  messageId: string,
  forbidden: MessageKey,
): Promise<LoadedMessage> {
  const loaded = await loadMessage(tx, actor, messageId, { lock: true })
  if (!canChangeMessage(loaded.conversation.access, actor.id, loaded.message)) {
    throw new AppError('forbidden', forbidden)
  }
  return loaded
}
