import { sql } from 'drizzle-orm'
import { AppError } from '../../../domain/errors.ts'
import { isUuid } from '../../../domain/ids.ts'
import { canInTeam, type TeamRole, teamPermissions } from '../../../domain/permissions.ts'
import type {
  CreateTeamInput,
  TeamAccess,
  TeamDetail,
  TeamMember,
  TeamSummary,
  UpdateTeamInput,
} from '../../../domain/teams.ts'
import type { Db, Tx } from '../../db/client.ts'
import { isoTimestamp, queryRows, type SqlTimestamp } from '../../db/rows.ts'
import { type Actor, authorizeTeam } from './policy.ts'

/** The §6 table's answer for every team permission of `actor`, whose role in the team is `role`. */
function teamAccessOf(actor: Pick<Actor, 'globalRole'>, role: TeamRole | null): TeamAccess {
  return Object.fromEntries(
    Object.keys(teamPermissions).map((permission) => [
      permission,
      canInTeam(actor, role, permission as keyof typeof teamPermissions),
    ]),
  ) as TeamAccess
}

/** The teams the user belongs to, with their role and the member count, by name. */
export async function listMyTeams(db: Db, actor: Actor): Promise<TeamSummary[]> {
  const rows = await queryRows<{
    id: string
    name: string
    role: TeamRole
    member_count: number | string
    created_at: SqlTimestamp
  }>(
    db,
    sql`SELECT t.id, t.name, m.role, t.created_at,
          (SELECT count(*) FROM team_members c WHERE c.team_id = t.id) AS member_count
        FROM team_members m JOIN teams t ON t.id = m.team_id
        WHERE m.user_id = ${actor.id}
        ORDER BY lower(t.name), t.id`,
  )
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    isAdmin: row.role === 'admin',
    memberCount: Number(row.member_count),
    createdAt: isoTimestamp(row.created_at),
    access: teamAccessOf(actor, row.role),
  }))
}

/** Creates a team whose first member and admin is its creator (one transaction). */
export async function createTeam(db: Db, actor: Actor, input: CreateTeamInput): Promise<TeamSummary> {
  return db.transaction(async (tx) => {
    const [team] = await queryRows<{ id: string; name: string; created_at: SqlTimestamp }>(
      tx,
      sql`INSERT INTO teams (name, created_by_user_id) VALUES (${input.name}, ${actor.id})
          RETURNING id, name, created_at`,
    )
    await tx.execute(
      sql`INSERT INTO team_members (team_id, user_id, role) VALUES (${team!.id}, ${actor.id}, 'admin')`,
    )
    return {
      id: team!.id,
      name: team!.name,
      role: 'admin',
      isAdmin: true,
      memberCount: 1,
      createdAt: isoTimestamp(team!.created_at),
      access: teamAccessOf(actor, 'admin'),
    }
  })
}

export async function getTeam(db: Db, actor: Actor, teamId: string): Promise<TeamDetail> {
  const access = await authorizeTeam(db, actor, teamId, 'view_team_data')
  const [counts] = await queryRows<{ members: number | string; pending: number | string }>(
    db,
    sql`SELECT
          (SELECT count(*) FROM team_members WHERE team_id = ${teamId}) AS members,
          (SELECT count(*) FROM invitations
            WHERE team_id = ${teamId} AND status = 'pending' AND expires_at > now()) AS pending`,
  )
  return {
    id: access.team.id,
    name: access.team.name,
    createdAt: access.team.createdAt?.toISOString() ?? null,
    memberCount: Number(counts?.members ?? 0),
    pendingInvitationCount: Number(counts?.pending ?? 0),
    role: access.role,
    access: teamAccessOf(actor, access.role),
  }
}

export async function renameTeam(
  db: Db,
  actor: Actor,
  teamId: string,
  input: UpdateTeamInput,
): Promise<TeamDetail> {
  await db.transaction(async (tx) => {
    await authorizeTeam(tx, actor, teamId, 'manage_team', { lock: true })
    await tx.execute(sql`UPDATE teams SET name = ${input.name}, updated_at = now() WHERE id = ${teamId}`)
  })
  return getTeam(db, actor, teamId)
}

/** §7 get_team_members_with_user_info: admins first, then by joining date. */
export async function listMembers(db: Db, actor: Actor, teamId: string): Promise<TeamMember[]> {
  await authorizeTeam(db, actor, teamId, 'view_team_data')
  const rows = await queryRows<{
    user_id: string
    email: string
    display_name: string | null
    role: TeamRole
    created_at: SqlTimestamp
  }>(
    db,
    sql`SELECT m.user_id, u.email, p.display_name, m.role, m.created_at
        FROM team_members m
        JOIN users u ON u.id = m.user_id
        LEFT JOIN profiles p ON p.user_id = m.user_id
        WHERE m.team_id = ${teamId}
        ORDER BY (m.role = 'admin') DESC, m.created_at, u.email`,
  )
  return rows.map((row) => ({
    userId: row.user_id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    joinedAt: isoTimestamp(row.created_at),
  }))
}

async function memberRole(tx: Tx, teamId: string, userId: string): Promise<TeamRole> {
  // User ids are uuids; anything else (a path segment with a NUL, say) names no member.
  if (!isUuid(userId)) throw new AppError('not_found', 'teams.notAMember')
  const [row] = await queryRows<{ role: TeamRole }>(
    tx,
    sql`SELECT role FROM team_members WHERE team_id = ${teamId} AND user_id = ${userId}`,
  )
  if (!row) throw new AppError('not_found', 'teams.notAMember')
  return row.role
}

async function adminCount(tx: Tx, teamId: string): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    tx,
    sql`SELECT count(*) AS n FROM team_members WHERE team_id = ${teamId} AND role = 'admin'`,
  )
  return Number(row?.n ?? 0)
}

/**
 * Team admins (and global admins) change roles. The team's row lock makes concurrent demotions
 * take turns, so a team never ends up without an admin.
 */
export async function changeMemberRole(
  db: Db,
  actor: Actor,
  teamId: string,
  userId: string,
  role: TeamRole,
): Promise<TeamMember> {
  await db.transaction(async (tx) => {
    await authorizeTeam(tx, actor, teamId, 'manage_team_roles', { lock: true })
    const current = await memberRole(tx, teamId, userId)
    if (current === role) return
    if (current === 'admin' && (await adminCount(tx, teamId)) === 1) {
      throw new AppError('conflict', 'teams.lastAdminRequired')
    }
    await tx.execute(
      sql`UPDATE team_members SET role = ${role} WHERE team_id = ${teamId} AND user_id = ${userId}`,
    )
  })
  const member = (await listMembers(db, actor, teamId)).find((item) => item.userId === userId)
  if (!member) throw new AppError('not_found', 'teams.notAMember')
  return member
}

export async function removeMember(db: Db, actor: Actor, teamId: string, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await authorizeTeam(tx, actor, teamId, 'remove_members', { lock: true })
    if (userId === actor.id) throw new AppError('forbidden', 'teams.cannotRemoveSelf')
    const current = await memberRole(tx, teamId, userId)
    if (current === 'admin' && (await adminCount(tx, teamId)) === 1) {
      throw new AppError('conflict', 'teams.lastAdminRequired')
    }
    await tx.execute(sql`DELETE FROM team_members WHERE team_id = ${teamId} AND user_id = ${userId}`)
  })
}

/** A member leaves; the only admin cannot (§5). */
export async function leaveTeam(db: Db, actor: Actor, teamId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await authorizeTeam(tx, actor, teamId, 'view_team_data', { lock: true })
    const current = await memberRole(tx, teamId, actor.id)
    if (current === 'admin' && (await adminCount(tx, teamId)) === 1) {
      throw new AppError('conflict', 'teams.cannotLeaveOnlyAdmin')
    }
    await tx.execute(sql`DELETE FROM team_members WHERE team_id = ${teamId} AND user_id = ${actor.id}`)
  })
}
