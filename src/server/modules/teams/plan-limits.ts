import type { Db, Tx } from '../../db/client.ts'

export type TeamMemberLimitCheck = { allowed: true } | { allowed: false; used: number; max: number }

/**
 * THE SEAM FOR PLAN LIMITS (max team members, §3 Entitlements `limits.max_team_members`).
 * Inviting a member and accepting an invitation call this inside their transaction, after the team's
 * row lock, and refuse with 403 'limit_reached' when it says no. It allows everything until the
 * plans work fills it in with the team's entitlements and usage.
 */
export async function checkTeamMemberLimit(_db: Db | Tx, _teamId: string): Promise<TeamMemberLimitCheck> {
  return { allowed: true }
}
