import { and, eq } from 'drizzle-orm'
import type { TeamRole } from '../../domain/permissions.ts'
import type { Db, Tx } from '../db/client.ts'
import { teamMembers } from '../db/schema/index.ts'

/**
 * Membership lookups every domain's policies build on. A user may belong to several teams.
 * Prefer writing the membership into a list query (`team_id IN (select team_id from team_members
 * where user_id = $me)`) over loading ids first; these helpers serve single-object checks.
 */
export async function roleInTeam(db: Db | Tx, teamId: string, userId: string): Promise<TeamRole | null> {
  const [row] = await db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
  return row?.role ?? null
}
