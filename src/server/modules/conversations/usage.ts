import { and, countDistinct, desc, eq, lte, sql } from 'drizzle-orm'
import type { Actor } from '../../../domain/auth.ts'
import {
  type PromptUsage,
  type PromptVersionUsage,
  USAGE_CONVERSATIONS_PER_VERSION,
} from '../../../domain/conversations.ts'
import type { Db } from '../../db/client.ts'
import {
  conversationMessagePrompts,
  conversationMessages,
  conversations,
  promptVersions,
} from '../../db/schema/index.ts'
import { findVisiblePrompt, promptNotFound } from '../prompts/index.ts'
import { conversationVisibleTo } from './policy.ts'

/**
 * "Used in N conversations": for each version of a prompt the viewer may see, and for its
 * "latest" attachments (no version), the conversations the viewer may see that attach it, most
 * recently active first (the first 20 per version; the counts are exact).
 */
export async function getPromptUsage(db: Db, actor: Actor, promptId: string): Promise<PromptUsage> {
  if (!(await findVisiblePrompt(db, actor, promptId))) throw promptNotFound()
  const versions = await db
    .select({ id: promptVersions.id, versionNumber: promptVersions.versionNumber })
    .from(promptVersions)
    .where(eq(promptVersions.promptId, promptId))
    .orderBy(desc(promptVersions.versionNumber))
  // Each (version, conversation) pair once: the conversations the viewer may see that attach it.
  const uses = db
    .selectDistinct({
      versionId: conversationMessagePrompts.promptVersionId,
      id: conversations.id,
      title: conversations.title,
      updatedAt: conversations.updatedAt,
    })
    .from(conversationMessagePrompts)
    .innerJoin(conversationMessages, eq(conversationMessages.id, conversationMessagePrompts.messageId))
    .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
    .where(and(eq(conversationMessagePrompts.promptId, promptId), conversationVisibleTo(actor)))
    .as('uses')
  const ranked = db
    .select({
      versionId: uses.versionId,
      id: uses.id,
      title: uses.title,
      updatedAt: uses.updatedAt,
      total: sql<number>`count(*) OVER (PARTITION BY ${uses.versionId})`.mapWith(Number).as('total'),
      n: sql<number>`row_number() OVER (PARTITION BY ${uses.versionId} ORDER BY ${uses.updatedAt} DESC, ${uses.id} DESC)`
        .mapWith(Number)
        .as('n'),
    })
    .from(uses)
    .as('ranked')
  const rows = await db
    .select()
    .from(ranked)
    .where(lte(ranked.n, USAGE_CONVERSATIONS_PER_VERSION))
    .orderBy(desc(ranked.updatedAt), desc(ranked.id))
  const [distinct] = await db.select({ count: countDistinct(uses.id) }).from(uses)
  const usageOf = (versionId: string | null, versionNumber: number | null): PromptVersionUsage => {
    const mine = rows.filter((row) => row.versionId === versionId)
    return {
      versionId,
      versionNumber,
      conversationCount: mine[0]?.total ?? 0,
      conversations: mine.map((row) => ({
        id: row.id,
        title: row.title,
        updatedAt: row.updatedAt.toISOString(),
      })),
    }
  }
  const latest = usageOf(null, null)
  return {
    promptId,
    conversationCount: Number(distinct?.count ?? 0),
    versions: [
      ...(latest.conversationCount > 0 ? [latest] : []),
      ...versions.map((version) => usageOf(version.id, version.versionNumber)),
    ],
  }
}
