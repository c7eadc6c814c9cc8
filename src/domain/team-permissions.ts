/**
 * The permission checks of §6 in one table, read by the server's policies and by the web app to hide
 * actions a user cannot take. Team permissions depend on the caller's role in the team; global
 * permissions on the global role. A global admin holds every permission in every team.
 */
export const teamRoles = ['admin', 'member'] as const
export type TeamRole = (typeof teamRoles)[number]

export const teamPermissions = {
  manage_team_roles: ['admin'],
  invite_members: ['admin'],
  remove_members: ['admin'],
  manage_team: ['admin'],
  view_team_data: ['admin', 'member'],
} as const satisfies Record<string, readonly TeamRole[]>

export type TeamPermission = keyof typeof teamPermissions

export const globalPermissions = [
  'view_all_users',
  'view_all_teams',
  'view_system_stats',
  'manage_global_roles',
] as const
export type GlobalPermission = (typeof globalPermissions)[number]

export interface Actor {
  globalRole: 'user' | 'global_admin'
}

/** May `actor`, whose role in the team is `role` (null: not a member), do `permission` there? */
export function canInTeam(actor: Actor, role: TeamRole | null, permission: TeamPermission): boolean {
  if (actor.globalRole === 'global_admin') return true
  return role !== null && (teamPermissions[permission] as readonly TeamRole[]).includes(role)
}

export function canGlobally(actor: Actor, _permission: GlobalPermission): boolean {
  return actor.globalRole === 'global_admin'
}
