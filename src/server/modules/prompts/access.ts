import { and, eq, or, type SQL, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import { prompts } from '../../db/schema/index.ts'

/**
 * Who may see a prompt (§6): its owner, and members of its team when its visibility is 'team'.
 * One definition, written into queries, used by every module that reads prompts.
 */
export function promptVisibleTo(userId: string): SQL {
  return or(
    eq(prompts.ownerUserId, userId),
    and(
      eq(prompts.visibility, 'team'),
      sql`${prompts.teamId} IN (SELECT team_id FROM team_members WHERE user_id = ${userId})`,
    ),
  )!
}

/** The prompt if `userId` may see it, else undefined (callers answer 404). */
export async function findVisiblePrompt(db: Db | Tx, userId: string, promptId: string) {
  const [row] = await db
    .select()
    .from(prompts)
    .where(and(eq(prompts.id, promptId), promptVisibleTo(userId)))
  return row
}
