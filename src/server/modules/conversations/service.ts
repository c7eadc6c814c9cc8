import { eq, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type {
  Conversation,
  ConversationSummary,
  createConversationInput,
  listConversationsQuery,
  updateConversationInput,
} from '../../../domain/conversations.ts'
import { decodeCursor, type Page } from '../../../domain/cursor.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Db } from '../../db/client.ts'
import { isoTimestamp, queryRows } from '../../db/rows.ts'
import { conversationMessages, conversations } from '../../db/schema/index.ts'
import { roleInTeam } from '../teams/membership.ts'
import { cursorTimestamp, type KeysetRow, pageOf } from './keyset.ts'
import { refreshSnapshot } from './messages.ts'
import { type Actor, type LoadedConversation, loadConversation, requireManage } from './policy.ts'

type SummaryRow = KeysetRow & {
  title: string
  team_id: string | null
  team_name: string | null
  owner_user_id: string
  tags: string[]
  created_at: Date | string
  updated_at: Date | string
}

function toSummary(row: Omit<SummaryRow, 'cursor_at'>): ConversationSummary {
  return {
    id: row.id,
    title: row.title,
    teamId: row.team_id,
    teamName: row.team_name,
    ownerUserId: row.owner_user_id,
    tags: row.tags,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  }
}

export function toConversation({ row, access }: LoadedConversation): Conversation {
  return { ...toSummary(row), content: row.content as Conversation['content'], access }
}

/** `%` and `_` typed by the user are literal characters, not wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}

/**
 * §7 conversations list: newest activity first (`updated_at desc, id desc`), by keyset, so pages stay
 * stable while others write. Scope owner: the actor's own; team: those of the actor's teams (one
 * given team, or all of them; nothing when the actor has none or names a team that is not theirs).
 */
export async function listConversations(
  db: Db,
  actor: Actor,
  query: z.output<typeof listConversationsQuery>,
): Promise<Page<ConversationSummary>> {
  const conditions: SQL[] = [
    query.scope === 'owner'
      ? sql`c.owner_user_id = ${actor.id}`
      : sql`c.team_id IN (SELECT team_id FROM team_members WHERE user_id = ${actor.id})`,
  ]
  if (query.scope === 'team' && query.teamId) conditions.push(sql`c.team_id = ${query.teamId}`)
  if (query.search) conditions.push(sql`c.title ILIKE ${likePattern(query.search)}`)
  if (query.tags && query.tags.length > 0) {
    conditions.push(
      sql`c.tags @> ARRAY[${sql.join(
        query.tags.map((tag) => sql`${tag}`),
        sql`, `,
      )}]::text[]`,
    )
  }
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor)
    conditions.push(sql`(c.updated_at, c.id) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`)
  }
  const rows = await queryRows<SummaryRow>(
    db,
    sql`SELECT c.id, c.title, c.team_id, t.name AS team_name, c.owner_user_id, c.tags, c.created_at,
          c.updated_at, ${cursorTimestamp(sql`c.updated_at`)} AS cursor_at
        FROM conversations c
        LEFT JOIN teams t ON t.id = c.team_id
        WHERE ${sql.join(conditions, sql` AND `)}
        ORDER BY c.updated_at DESC, c.id DESC
        LIMIT ${query.limit + 1}`,
  )
  return pageOf(rows, query.limit, toSummary)
}

/**
 * Creates a conversation and, when given, its first message, in one transaction (the spec deleted
 * the conversation again when the message failed). The team must be one of the creator's teams.
 */
export async function createConversation(
  db: Db,
  actor: Actor,
  input: z.output<typeof createConversationInput>,
): Promise<Conversation> {
  return db.transaction(async (tx) => {
    const teamId = input.teamId ?? null
    if (teamId && !(await roleInTeam(tx, teamId, actor.id))) {
      throw new AppError('not_found', 'conversations.teamNotFound', {
        fields: { teamId: 'conversations.teamNotFound' },
      })
    }
    const [created] = await tx
      .insert(conversations)
      .values({ title: input.title, teamId, ownerUserId: actor.id, tags: input.tags })
      .returning({ id: conversations.id })
    const id = created!.id
    if (input.firstMessage) {
      await tx.insert(conversationMessages).values({
        conversationId: id,
        createdByUserId: actor.id,
        role: 'user',
        content: { text: input.firstMessage },
      })
      await refreshSnapshot(tx, id)
    }
    return toConversation(await loadConversation(tx, actor, id))
  })
}

export async function getConversation(db: Db, actor: Actor, id: string): Promise<Conversation> {
  return toConversation(await loadConversation(db, actor, id))
}

/** §7 update: title and/or tags. */
export async function updateConversation(
  db: Db,
  actor: Actor,
  id: string,
  input: z.output<typeof updateConversationInput>,
): Promise<Conversation> {
  return db.transaction(async (tx) => {
    requireManage(await loadConversation(tx, actor, id, { lock: true }))
    await tx
      .update(conversations)
      .set({
        ...(input.title !== undefined && { title: input.title }),
        ...(input.tags !== undefined && { tags: input.tags }),
        updatedAt: sql`now()`,
      })
      .where(eq(conversations.id, id))
    return toConversation(await loadConversation(tx, actor, id))
  })
}

/** Deletes the conversation with its messages and their attachments (foreign keys cascade). */
export async function deleteConversation(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    requireManage(await loadConversation(tx, actor, id, { lock: true }))
    await tx.delete(conversations).where(eq(conversations.id, id))
  })
}
