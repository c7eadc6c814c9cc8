import { sql } from 'drizzle-orm'
import type { CurrentUser } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { isUuid } from '../../../domain/ids.ts'
import type { MessageKey } from '../../../domain/messages/index.ts'
import { canInTeam, type TeamPermission, type TeamRole } from '../../../domain/permissions.ts'
import type { Db, Tx } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'

export type Actor = Pick<CurrentUser, 'id' | 'email' | 'globalRole'>

/** A team the actor may see, with the actor's role in it (null: a global admin from outside). */
export interface TeamAccess {
  team: { id: string; name: string; createdAt: Date | null }
  role: TeamRole | null
  actor: Actor
}

/** What a caller without the permission is told (§8). Viewing is refused as "not found". */
const deniedMessage: Record<TeamPermission, MessageKey> = {
  view_team_data: 'teams.notFound',
  invite_members: 'teams.onlyAdminsInvite',
  manage_team_roles: 'teams.onlyAdminsUpdateRoles',
  remove_members: 'teams.onlyAdminsRemove',
  manage_team: 'teams.teamAdminRequired',
}

export const teamNotFound = () => new AppError('not_found', 'teams.notFound')

/**
 * Loads the team and the actor's role and checks `permission` with the §6 table (`canInTeam`).
 * A team the actor may not see, or that does not exist, is 404 'Team not found or access denied'
 * (its existence is not leaked); a visible team without the permission is 403 with the spec's
 * message. `lock` takes the team's row lock, so that writes which depend on the member list (the
 * last admin, duplicate invitations) run one at a time per team.
 */
export async function authorizeTeam(
  db: Db | Tx,
  actor: Actor,
  teamId: string,
  permission: TeamPermission,
  options: { lock?: boolean } = {},
): Promise<TeamAccess> {
  if (!isUuid(teamId)) throw teamNotFound()
  const [row] = await queryRows<{ id: string; name: string; created_at: Date | string | null }>(
    db,
    sql`SELECT id, name, created_at FROM teams WHERE id = ${teamId} ${options.lock ? sql`FOR UPDATE` : sql``}`,
  )
  if (!row) throw teamNotFound()
  const [membership] = await queryRows<{ role: TeamRole }>(
    db,
    sql`SELECT role FROM team_members WHERE team_id = ${teamId} AND user_id = ${actor.id}`,
  )
  const role = membership?.role ?? null
  if (!canInTeam(actor, role, 'view_team_data')) throw teamNotFound()
  if (!canInTeam(actor, role, permission)) throw new AppError('forbidden', deniedMessage[permission])
  return {
    team: { id: row.id, name: row.name, createdAt: row.created_at ? new Date(row.created_at) : null },
    role,
    actor,
  }
}
