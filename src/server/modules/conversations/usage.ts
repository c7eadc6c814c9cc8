import { desc, eq, sql } from 'drizzle-orm'
import {
  type PromptUsage,
  type PromptVersionUsage,
  USAGE_CONVERSATIONS_PER_VERSION,
} from '../../../domain/conversations.ts'
import type { Db } from '../../db/client.ts'
import { isoTimestamp, queryRows } from '../../db/rows.ts'
import { promptVersions } from '../../db/schema/index.ts'
import { findVisiblePrompt, promptNotFound } from '../prompts/access.ts'
import { type Actor, conversationVisibleTo } from './policy.ts'

/**
 * "Used in N conversations" (issue 5): for each version of a prompt the viewer may see, and for its
 * "latest" attachments (no version), the conversations the viewer may see that attach it, most
 * recently active first (the first 20 per version; the counts are exact).
 */
export async function getPromptUsage(db: Db, actor: Actor, promptId: string): Promise<PromptUsage> {
  if (!(await findVisiblePrompt(db, actor.id, promptId))) throw promptNotFound()
  const versions = await db
    .select({ id: promptVersions.id, versionNumber: promptVersions.versionNumber })
    .from(promptVersions)
    .where(eq(promptVersions.promptId, promptId))
    .orderBy(desc(promptVersions.versionNumber))
  const uses = sql`
    SELECT DISTINCT a.prompt_version_id AS version_id, c.id, c.title, c.updated_at
    FROM conversation_message_prompts a
    JOIN conversation_messages m ON m.id = a.message_id
    JOIN conversations c ON c.id = m.conversation_id
    WHERE a.prompt_id = ${promptId} AND ${conversationVisibleTo(actor)}`
  const rows = await queryRows<{
    version_id: string | null
    id: string
    title: string
    updated_at: Date | string
    total: number | string
  }>(
    db,
    sql`SELECT version_id, id, title, updated_at, total FROM (
          SELECT u.*, count(*) OVER (PARTITION BY u.version_id) AS total,
            row_number() OVER (PARTITION BY u.version_id ORDER BY u.updated_at DESC, u.id DESC) AS n
          FROM (${uses}) u) ranked
        WHERE n <= ${USAGE_CONVERSATIONS_PER_VERSION}
        ORDER BY updated_at DESC, id DESC`,
  )
  const [distinct] = await queryRows<{ count: number | string }>(
    db,
    sql`SELECT count(DISTINCT id) AS count FROM (${uses}) u`,
  )
  const usageOf = (versionId: string | null, versionNumber: number | null): PromptVersionUsage => {
    const mine = rows.filter((row) => row.version_id === versionId)
    return {
      versionId,
      versionNumber,
      conversationCount: Number(mine[0]?.total ?? 0),
      conversations: mine.map((row) => ({
        id: row.id,
        title: row.title,
        updatedAt: isoTimestamp(row.updated_at),
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
