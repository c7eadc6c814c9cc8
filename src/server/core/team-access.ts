import { eq } from 'drizzle-orm'
import type { Actor as RequestActor } from '../../domain/auth.ts'
import { AppError } from '../../domain/errors.ts'
import { isUuid } from '../../domain/ids.ts'
import type { MessageKey } from '../../domain/messages/index.ts'
import { canInTeam, type TeamPermission, type TeamRole } from '../../domain/permissions.ts'
import type { Db, Tx } from '../db/client.ts'
import { teams } from '../db/schema/index.ts'
import { roleInTeam } from './team-membership.ts'

/** What the team rules read of the actor (invitations compare the email). */
export type Actor = Pick<RequestActor, 'id' | 'email' | 'globalRole' | 'clientAddress' | 'apiKeyId'>

/** A team the actor may see, with the actor's role in it (null: a global admin from outside). */
export interface TeamAccess {
  team: { id: string; name: string; createdAt: Date }
  role: TeamRole | null
  actor: Actor
}

/** What a caller without the permission is told. Viewing is refused as "not found", so a team's existence does not leak. */
const deniedMessage: Record<TeamPermission, MessageKey> = {
  view_team_data: 'teams.notFound',
  invite_members: 'teams.onlyAdminsInvite',
  manage_team_roles: 'teams.onlyAdminsUpdateRoles',
  remove_members: 'teams.onlyAdminsRemove',
  manage_team: 'teams.teamAdminRequired',
}

export const teamNotFound = () => new AppError('not_found', 'teams.notFound')

/**
 * Loads the team and the actor's role and checks `permission` with the team permission table (`canInTeam`).
 * A team the actor may not see, or that does not exist, is 404 'Team not found or access denied'
 * (its existence is not leaked); a visible team without the permission is 403 with the spec's
 * message. `lock` takes the team's row lock, so that writes which depend on the member list (the
 * last admin, duplicate invitations) run one at a time per team. It is FOR NO KEY UPDATE: writes
 * that merely reference the team (a team prompt's foreign key check takes FOR KEY SHARE) neither
 * wait for it nor hold it up, which once closed a deadlock with concurrent prompt writes.
 */
export async function authorizeTeam(
  db: Db | Tx,
  actor: Actor,
  teamId: string,
  permission: TeamPermission,
  options: { lock?: boolean } = {},
): Promise<TeamAccess> {
  if (!isUuid(teamId)) throw teamNotFound()
  const query = db
    .select({ id: teams.id, name: teams.name, createdAt: teams.createdAt })
    .from(teams)
    .where(eq(teams.id, teamId))
  const [team] = await (options.lock ? query.for('no key update') : query)
  if (!team) throw teamNotFound()
  const role = await roleInTeam(db, teamId, actor.id)
  if (!canInTeam(actor, role, 'view_team_data')) throw teamNotFound()
  if (!canInTeam(actor, role, permission)) throw new AppError('forbidden', deniedMessage[permission])
  return { team, role, actor }
}
