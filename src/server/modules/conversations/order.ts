import { sql } from 'drizzle-orm'

/*
 * Messages and attachments are read in the order `(created_at, id)`. clock_timestamp() alone ties
 * within a millisecond on PGlite, whose clock has no finer resolution, and the random id then put
 * tied rows in any order (attachments picked together, messages appended in one millisecond). A
 * new row's created_at is therefore at least a microsecond after every earlier row's, read under
 * the conversation's row lock that every write to it holds (`loadConversation` with `lock`).
 */

/** The created_at of a message appended now: after every message of its conversation. */
export const nextMessageAt = (conversationId: string) =>
  sql`greatest(clock_timestamp(), (SELECT max(m.created_at) + interval '1 microsecond'
    FROM conversation_messages m WHERE m.conversation_id = ${conversationId}))`

/** The created_at of an attachment added now: after every attachment of its message. */
export const nextAttachmentAt = (messageId: string) =>
  sql`greatest(clock_timestamp(), (SELECT max(a.created_at) + interval '1 microsecond'
    FROM conversation_message_prompts a WHERE a.message_id = ${messageId}))`
