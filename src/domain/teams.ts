import type { TeamRole } from './team-permissions.ts'

/** A team as its member sees it in lists (§3 Team: id, name, created_at, member_count, role). */
export interface TeamSummary {
  id: string
  name: string
  role: TeamRole
  isAdmin: boolean
  memberCount: number
  createdAt: string
}
