import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import type {
  Conversation,
  ConversationSummary,
  createConversationInput,
  listConversationsQuery,
  updateConversationInput,
} from '../../../domain/conversations.ts'
import { decodeCursor, type Page } from '../../../domain/cursor.ts'
import { AppError } from '../../../domain/errors.ts'
import { conversationSpace, enqueueEvent, eventActor } from '../../core/events.ts'
import { roleInTeam } from '../../core/team-membership.ts'
import type { Db } from '../../db/client.ts'
import { builtOnce } from '../../db/prepared.ts'
import {
  afterCursor,
  containsPattern,
  containsText,
  cursorTimestamp,
  hasAllTags,
  teamsOf,
  toPage,
} from '../../db/queries.ts'
import { conversationMessages, conversations, teams } from '../../db/schema/index.ts'
import { refreshSnapshot } from './messages.ts'
import {
  conversationOwnedBy,
  conversationSummaryColumns,
  loadConversation,
  readConversation,
  requireManage,
} from './policy.ts'

function toSummary(row: ConversationSummary): ConversationSummary {
  return {
    id: row.id,
    title: row.title,
    teamId: row.teamId,
    teamName: row.teamName,
    ownerUserId: row.ownerUserId,
    tags: row.tags,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

export function toConversation({ row, access }: Awaited<ReturnType<typeof readConversation>>): Conversation {
  const replyModel =
    row.modelProviderId && row.model ? { providerId: row.modelProviderId, model: row.model } : null
  return { ...toSummary(row), content: row.content, access, replyModel }
}

/**
 * Conversations list: newest activity first (`updated_at desc, id desc`), by keyset, so pages
 * stay stable while others write. Scope owner: the actor's own; team: those of the actor's teams
 * (one given team, or all of them; nothing when the actor has none or names a team that is not
 * theirs).
 */
export async function listConversations(
  db: Db,
  actor: Actor,
  query: z.output<typeof listConversationsQuery>,
): Promise<Page<ConversationSummary>> {
  const cursor = query.cursor ? decodeCursor(query.cursor, 'timestamp') : undefined
  const team = query.scope === 'team' && query.teamId !== undefined
  const rows = await conversationListStatement(db, {
    scope: query.scope,
    team,
    search: Boolean(query.search),
    tags: query.tags.length > 0,
    cursor: cursor !== undefined,
  }).execute({
    viewer: actor.id,
    teamId: team ? query.teamId : undefined,
    search: query.search ? containsPattern(query.search) : undefined,
    tags: query.tags,
    cursorAt: cursor?.at,
    cursorId: cursor?.id,
    limit: query.limit + 1,
  })
  return toPage(rows, query.limit, (row) => row.cursorAt, toSummary)
}

/** Which optional parts a conversations list request has: each combination is built once. */
interface ConversationListShape {
  scope: 'owner' | 'team'
  team: boolean
  search: boolean
  tags: boolean
  cursor: boolean
}

/**
 * Without a search or tags a page is one index range whatever the values: named, so that
 * PostgreSQL keeps its plan (decision 0278); a search's or a tag filter's best plan depends on them.
 */
function keptPlanName(shape: ConversationListShape): string {
  return shape.search || shape.tags
    ? ''
    : `promptfolio_conversation_list_${shape.scope}${+shape.team}${+shape.cursor}`
}

/** The conversations list's select for one shape, with placeholders (`builtOnce`). */
const conversationListStatement = builtOnce(
  (db, shape: ConversationListShape) => {
    const ph = sql.placeholder
    const viewer = ph('viewer')
    return db
      .select({ ...conversationSummaryColumns, cursorAt: cursorTimestamp(conversations.updatedAt) })
      .from(conversations)
      .leftJoin(teams, eq(teams.id, conversations.teamId))
      .where(
        and(
          shape.scope === 'owner'
            ? conversationOwnedBy(viewer)
            : inArray(conversations.teamId, teamsOf(viewer)),
          shape.team ? eq(conversations.teamId, ph('teamId')) : undefined,
          shape.search ? containsText(conversations.title, ph('search')) : undefined,
          shape.tags ? hasAllTags(conversations.tags, ph('tags')) : undefined,
          shape.cursor
            ? afterCursor({ column: conversations.updatedAt, kind: 'timestamp' }, conversations.id, {
                at: ph('cursorAt'),
                id: ph('cursorId'),
              })
            : undefined,
        ),
      )
      .orderBy(desc(conversations.updatedAt), desc(conversations.id))
      .limit(ph('limit'))
      .prepare(keptPlanName(shape))
  },
  (shape) => `${shape.scope}:${+shape.team}${+shape.search}${+shape.tags}${+shape.cursor}`,
)

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
      .returning({ id: conversations.id, createdAt: conversations.createdAt })
    const id = created!.id
    const space = conversationSpace({ teamId, ownerUserId: actor.id })
    const conversation = { id, title: input.title, teamId, tags: input.tags }
    await enqueueEvent(tx, space, {
      type: 'conversation.created',
      actor: eventActor(actor),
      data: { conversation: { ...conversation, ownerUserId: actor.id } },
    })
    if (input.firstMessage) {
      const [message] = await tx
        .insert(conversationMessages)
        .values({
          conversationId: id,
          createdByUserId: actor.id,
          role: 'user',
          content: { text: input.firstMessage },
        })
        .returning({ id: conversationMessages.id, createdAt: conversationMessages.createdAt })
      await enqueueEvent(tx, space, {
        type: 'conversation.message.created',
        actor: eventActor(actor),
        data: {
          conversation: { id, title: input.title },
          message: {
            id: message!.id,
            role: 'user',
            content: { text: input.firstMessage },
            createdAt: message!.createdAt.toISOString(),
          },
        },
      })
      await refreshSnapshot(tx, id)
    }
    return toConversation(await readConversation(tx, actor, id))
  })
}

export async function getConversation(db: Db, actor: Actor, id: string): Promise<Conversation> {
  return toConversation(await readConversation(db, actor, id))
}

/** Update: title and/or tags. */
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
    return toConversation(await readConversation(tx, actor, id))
  })
}

/** Deletes the conversation with its messages and their attachments (foreign keys cascade). */
export async function deleteConversation(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    requireManage(await loadConversation(tx, actor, id, { lock: true }))
    await tx.delete(conversations).where(eq(conversations.id, id))
  })
}
