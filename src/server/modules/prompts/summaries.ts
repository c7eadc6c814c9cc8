import { eq, sql } from 'drizzle-orm'
import type { PromptSummary } from '../../../domain/prompts.ts'
import type { Db, Tx } from '../../db/client.ts'
import { prompts, promptVersions, users } from '../../db/schema/index.ts'

/**
 * The select behind every PromptSummary (lists and detail): the prompt, its current version's
 * number and body, its version count, and the owner's email when the viewer may know it.
 */
export function selectSummaries(db: Db | Tx, viewerId: string) {
  return db
    .select({
      id: prompts.id,
      ownerUserId: prompts.ownerUserId,
      // The owner's email is shown to the owner, and to members of the prompt's team while the
      // owner is still one of them; otherwise the screen says 'Member'.
      ownerEmail: sql<string | null>`CASE WHEN ${prompts.ownerUserId} = ${viewerId} OR (
          EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = ${prompts.teamId} AND o.user_id = ${prompts.ownerUserId})
          AND EXISTS (SELECT 1 FROM team_members v WHERE v.team_id = ${prompts.teamId} AND v.user_id = ${viewerId})
        ) THEN ${users.email} END`,
      teamId: prompts.teamId,
      title: prompts.title,
      description: prompts.description,
      tags: prompts.tags,
      visibility: prompts.visibility,
      currentVersionId: prompts.currentVersionId,
      currentVersionNumber: promptVersions.versionNumber,
      currentVersionBody: promptVersions.body,
      versionCount: sql<number>`(SELECT count(*)::int FROM prompt_versions c WHERE c.prompt_id = ${prompts.id})`,
      createdAt: prompts.createdAt,
      updatedAt: prompts.updatedAt,
      // The sort key with microseconds for the cursor: a JS Date would cut them off and skip rows.
      cursorAt: sql<string>`to_char(${prompts.updatedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(prompts)
    .innerJoin(users, eq(users.id, prompts.ownerUserId))
    .leftJoin(promptVersions, eq(promptVersions.id, prompts.currentVersionId))
    .$dynamic()
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectSummaries>['execute']>>[number]

export function toSummary(row: SummaryRow): PromptSummary {
  const { cursorAt: _, ...rest } = row
  return {
    ...rest,
    versionCount: Number(row.versionCount),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

export function toVersion(row: typeof promptVersions.$inferSelect) {
  return { ...row, createdAt: row.createdAt.toISOString() }
}
