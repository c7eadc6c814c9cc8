import { canInTeam, type TeamPermission, type TeamRole } from '../../../domain/team-permissions.ts'
import { useCurrentUser } from '../auth/session.ts'

/**
 * The §6 table as the server applies it, for hiding actions the user cannot take in a team where
 * their role is `role` (null: not a member, e.g. a global admin managing it).
 */
export function useTeamPermissions(role: TeamRole | null) {
  const user = useCurrentUser()
  return (permission: TeamPermission) => canInTeam(user, role, permission)
}
