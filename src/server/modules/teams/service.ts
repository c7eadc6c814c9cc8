import { and, asc, desc, eq, gt, sql } from 'drizzle-orm'
import { AppError } from '../../../domain/errors.ts'
import { canInTeam, type TeamRole, teamPermissions } from '../../../domain/permissions.ts'
import type {
  CreateTeamInput,
  TeamAccess,
  TeamDetail,
  TeamMember,
  TeamSummary,
  UpdateTeamInput,
} from '../../../domain/teams.ts'
import { recordAudit } from '../../core/audit.ts'
import { type Actor, authorizeTeam } from '../../core/team-access.ts'
import { roleInTeam } from '../../core/team-membership.ts'
import type { Db, Tx } from '../../db/client.ts'
import { invitations, profiles, teamMembers, teams, users } from '../../db/schema/index.ts'
import { type KeysNotice, queueKeysToReview } from './former-admin-keys.ts'

/** The team permission table's answer for every team permission of `actor`, whose role in the team is `role`. */
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
  const rows = await db
    .select({
      id: teams.id,
      name: teams.name,
      role: teamMembers.role,
      createdAt: teams.createdAt,
      memberCount: db.$count(teamMembers, eq(teamMembers.teamId, teams.id)),
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, actor.id))
    .orderBy(sql`lower(${teams.name})`, teams.id)
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    isAdmin: row.role === 'admin',
    memberCount: Number(row.memberCount),
    createdAt: row.createdAt.toISOString(),
    access: teamAccessOf(actor, row.role),
  }))
}

/** Creates a team whose first member and admin is its creator (one transaction). */
export async function createTeam(db: Db, actor: Actor, input: CreateTeamInput): Promise<TeamSummary> {
  return db.transaction(async (tx) => {
    const [team] = await tx
      .insert(teams)
      .values({ name: input.name, createdByUserId: actor.id })
      .returning({ id: teams.id, name: teams.name, createdAt: teams.createdAt })
    await tx.insert(teamMembers).values({ teamId: team!.id, userId: actor.id, role: 'admin' })
    await recordAudit(tx, actor, {
      action: 'team.created',
      objectType: 'team',
      objectId: team!.id,
      teamId: team!.id,
      after: { name: team!.name },
    })
    return {
      id: team!.id,
      name: team!.name,
      role: 'admin',
      isAdmin: true,
      memberCount: 1,
      createdAt: team!.createdAt.toISOString(),
      access: teamAccessOf(actor, 'admin'),
    }
  })
}

export async function getTeam(db: Db, actor: Actor, teamId: string): Promise<TeamDetail> {
  const access = await authorizeTeam(db, actor, teamId, 'view_team_data')
  const [memberCount, pendingInvitationCount] = await Promise.all([
    db.$count(teamMembers, eq(teamMembers.teamId, teamId)),
    db.$count(
      invitations,
      and(
        eq(invitations.teamId, teamId),
        eq(invitations.status, 'pending'),
        gt(invitations.expiresAt, sql`now()`),
      ),
    ),
  ])
  return {
    id: access.team.id,
    name: access.team.name,
    createdAt: access.team.createdAt.toISOString(),
    memberCount,
    pendingInvitationCount,
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
    const access = await authorizeTeam(tx, actor, teamId, 'manage_team', { lock: true })
    await tx.update(teams).set({ name: input.name, updatedAt: sql`now()` }).where(eq(teams.id, teamId))
    if (access.team.name !== input.name) {
      await recordAudit(tx, actor, {
        action: 'team.renamed',
        objectType: 'team',
        objectId: teamId,
        teamId,
        before: { name: access.team.name },
        after: { name: input.name },
      })
    }
  })
  return getTeam(db, actor, teamId)
}

/** The members with their email and display name: admins first, then by joining date. */
export async function listMembers(db: Db, actor: Actor, teamId: string): Promise<TeamMember[]> {
  await authorizeTeam(db, actor, teamId, 'view_team_data')
  const rows = await db
    .select({
      userId: teamMembers.userId,
      email: users.email,
      displayName: profiles.displayName,
      role: teamMembers.role,
      joinedAt: teamMembers.createdAt,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .leftJoin(profiles, eq(profiles.userId, teamMembers.userId))
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(desc(sql`${teamMembers.role} = 'admin'`), asc(teamMembers.createdAt), asc(users.email))
  return rows.map((row) => ({ ...row, joinedAt: row.joinedAt.toISOString() }))
}

async function memberRole(tx: Tx, teamId: string, userId: string): Promise<TeamRole> {
  const role = await roleInTeam(tx, teamId, userId)
  if (!role) throw new AppError('not_found', 'teams.notAMember')
  return role
}

const memberRow = (teamId: string, userId: string) =>
  and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId))

async function emailOf(tx: Tx, userId: string): Promise<string | null> {
  const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId))
  return row?.email ?? null
}

async function adminCount(tx: Tx, teamId: string): Promise<number> {
  return tx.$count(teamMembers, and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, 'admin')))
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
  notice: KeysNotice,
): Promise<TeamMember> {
  await db.transaction(async (tx) => {
    await authorizeTeam(tx, actor, teamId, 'manage_team_roles', { lock: true })
    const current = await memberRole(tx, teamId, userId)
    if (current === role) return
    if (current === 'admin' && (await adminCount(tx, teamId)) === 1) {
      throw new AppError('conflict', 'teams.lastAdminRequired')
    }
    await tx.update(teamMembers).set({ role }).where(memberRow(teamId, userId))
    await recordAudit(tx, actor, {
      action: 'member.role_changed',
      objectType: 'membership',
      objectId: userId,
      teamId,
      before: { role: current },
      after: { role },
    })
    if (current === 'admin') await queueKeysToReview(tx, notice, teamId, userId)
  })
  const member = (await listMembers(db, actor, teamId)).find((item) => item.userId === userId)
  if (!member) throw new AppError('not_found', 'teams.notAMember')
  return member
}

export async function removeMember(
  db: Db,
  actor: Actor,
  teamId: string,
  userId: string,
  notice: KeysNotice,
): Promise<void> {
  await db.transaction(async (tx) => {
    await authorizeTeam(tx, actor, teamId, 'remove_members', { lock: true })
    if (userId === actor.id) throw new AppError('forbidden', 'teams.cannotRemoveSelf')
    const current = await memberRole(tx, teamId, userId)
    if (current === 'admin' && (await adminCount(tx, teamId)) === 1) {
      throw new AppError('conflict', 'teams.lastAdminRequired')
    }
    await tx.delete(teamMembers).where(memberRow(teamId, userId))
    await recordAudit(tx, actor, {
      action: 'member.removed',
      objectType: 'membership',
      objectId: userId,
      teamId,
      before: { role: current, email: await emailOf(tx, userId) },
    })
    if (current === 'admin') await queueKeysToReview(tx, notice, teamId, userId)
  })
}

/** A member leaves; the only admin cannot (the team would have no one to run it). */
export async function leaveTeam(db: Db, actor: Actor, teamId: string, notice: KeysNotice): Promise<void> {
  await db.transaction(async (tx) => {
    await authorizeTeam(tx, actor, teamId, 'view_team_data', { lock: true })
    const current = await memberRole(tx, teamId, actor.id)
    if (current === 'admin' && (await adminCount(tx, teamId)) === 1) {
      throw new AppError('conflict', 'teams.cannotLeaveOnlyAdmin')
    }
    await tx.delete(teamMembers).where(memberRow(teamId, actor.id))
    await recordAudit(tx, actor, {
      action: 'member.left',
      objectType: 'membership',
      objectId: actor.id,
      teamId,
      before: { role: current },
    })
    if (current === 'admin') await queueKeysToReview(tx, notice, teamId, actor.id)
  })
}
