import { z } from 'zod'
import { emailSchema } from './auth.ts'
import { type TeamRole, teamRoles } from './team-permissions.ts'

export const TEAM_NAME_MAX = 100

/** A team as its member sees it in lists (§3 Team: id, name, created_at, member_count, role). */
export interface TeamSummary {
  id: string
  name: string
  role: TeamRole
  isAdmin: boolean
  memberCount: number
  createdAt: string
}

/**
 * One team as the management screen shows it. `role` is the caller's role in the team, null for a
 * global admin who manages a team without belonging to it.
 */
export interface TeamDetail {
  id: string
  name: string
  createdAt: string | null
  memberCount: number
  /** Pending invitations that have not expired yet. */
  pendingInvitationCount: number
  role: TeamRole | null
}

/** §3 Team member, listing view (get_team_members_with_user_info). */
export interface TeamMember {
  userId: string
  email: string
  displayName: string | null
  role: TeamRole
  joinedAt: string
}

/**
 * §3 Invitation, without its token (only a hash is stored). A pending invitation past its expiry
 * is reported as 'expired' even before anyone tried to accept it.
 */
export const invitationStatuses = ['pending', 'accepted', 'expired', 'revoked'] as const
export type InvitationStatus = (typeof invitationStatuses)[number]

export interface TeamInvitation {
  id: string
  teamId: string
  email: string
  role: TeamRole
  status: InvitationStatus
  invitedByEmail: string | null
  expiresAt: string
  sentAt: string
  createdAt: string
}

/** What the holder of an invitation link sees before accepting (no account needed). */
export interface InvitationPreview {
  teamName: string
  email: string
  role: TeamRole
  invitedByEmail: string | null
  expiresAt: string
}

export interface AcceptedInvitation {
  teamId: string
  teamName: string
  role: TeamRole
}

const teamNameSchema = z
  .string({ error: 'teams.nameRequired' })
  .trim()
  .min(1, 'teams.nameRequired')
  .max(TEAM_NAME_MAX, 'teams.nameTooLong')

export const createTeamInput = z.object({ name: teamNameSchema })
export type CreateTeamInput = z.input<typeof createTeamInput>

export const updateTeamInput = z.object({ name: teamNameSchema })
export type UpdateTeamInput = z.input<typeof updateTeamInput>

const teamRoleSchema = z.enum(teamRoles, { error: 'teams.roleInvalid' })

/** §5 Invite: the email must not be empty after trimming; the role defaults to member. */
export const inviteInput = z.object({
  email: z
    .string({ error: 'teams.inviteEmailRequired' })
    .trim()
    .min(1, 'teams.inviteEmailRequired')
    .pipe(emailSchema),
  role: teamRoleSchema.default('member'),
})
export type InviteInput = z.input<typeof inviteInput>

export const changeRoleInput = z.object({ role: teamRoleSchema })
export type ChangeRoleInput = z.input<typeof changeRoleInput>

/** Invitation tokens in links: 32 random bytes, base64url (43 characters). */
export const invitationTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/)

/** Team and invitation ids are uuids; anything else cannot name one (the web's 'Invalid team ID'). */
export function isUuid(value: string | undefined): value is string {
  return z.uuid().safeParse(value).success
}

/** The first 8 characters of a team id, as the settings tab shows it. */
export function shortTeamId(id: string): string {
  return id.slice(0, 8)
}
