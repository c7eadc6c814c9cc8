import { z } from 'zod'
import { emailSchema } from './auth.ts'
import { type TeamPermission, teamPermissions, teamRoles } from './permissions.ts'

export const TEAM_NAME_MAX = 100

/** What the caller may do in a team: the permission table's answer for each team permission. */
export const teamAccessSchema = z.object(
  Object.fromEntries(Object.keys(teamPermissions).map((permission) => [permission, z.boolean()])) as {
    [P in TeamPermission]: z.ZodBoolean
  },
)
export type TeamAccess = z.infer<typeof teamAccessSchema>

const teamRoleSchema = z.enum(teamRoles, { error: 'teams.roleInvalid' })

/** A team as its member sees it in lists. */
export const teamSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  role: teamRoleSchema,
  isAdmin: z.boolean(),
  memberCount: z.number().int(),
  createdAt: z.string(),
  access: teamAccessSchema,
})
export type TeamSummary = z.infer<typeof teamSummarySchema>

/**
 * One team as the management screen shows it. `role` is the caller's role in the team, null for a
 * global admin who manages a team without belonging to it.
 */
export const teamDetailSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  createdAt: z.string().nullable(),
  memberCount: z.number().int(),
  /** Pending invitations that have not expired yet. */
  pendingInvitationCount: z.number().int(),
  role: teamRoleSchema.nullable(),
  access: teamAccessSchema,
})
export type TeamDetail = z.infer<typeof teamDetailSchema>

/** Team member, listing view (get_team_members_with_user_info). */
export const teamMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  role: teamRoleSchema,
  joinedAt: z.string(),
})
export type TeamMember = z.infer<typeof teamMemberSchema>

/**
 * Invitation, without its token (only a hash is stored). A pending invitation past its expiry
 * is reported as 'expired' even before anyone tried to accept it.
 */
export const invitationStatuses = ['pending', 'accepted', 'expired', 'revoked'] as const
export type InvitationStatus = (typeof invitationStatuses)[number]

export const teamInvitationSchema = z.object({
  id: z.uuid(),
  teamId: z.uuid(),
  email: z.string(),
  role: teamRoleSchema,
  status: z.enum(invitationStatuses),
  invitedByEmail: z.string().nullable(),
  expiresAt: z.string(),
  sentAt: z.string(),
  createdAt: z.string(),
})
export type TeamInvitation = z.infer<typeof teamInvitationSchema>

/** What the holder of an invitation link sees before accepting (no account needed). */
export const invitationPreviewSchema = z.object({
  teamName: z.string(),
  email: z.string(),
  role: teamRoleSchema,
  invitedByEmail: z.string().nullable(),
  expiresAt: z.string(),
})
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>

export const acceptedInvitationSchema = z.object({
  teamId: z.uuid(),
  teamName: z.string(),
  role: teamRoleSchema,
})
export type AcceptedInvitation = z.infer<typeof acceptedInvitationSchema>

const teamNameSchema = z
  .string({ error: 'teams.nameRequired' })
  .trim()
  .min(1, 'teams.nameRequired')
  .max(TEAM_NAME_MAX, 'teams.nameTooLong')
  // One line: a team's name is shown in lists, headings and invitation mails.
  .regex(/^\P{Cc}*$/u, 'teams.nameOneLine')

export const createTeamInput = z.object({ name: teamNameSchema })
export type CreateTeamInput = z.input<typeof createTeamInput>

export const updateTeamInput = z.object({ name: teamNameSchema })
export type UpdateTeamInput = z.input<typeof updateTeamInput>

/** Invite: the email must not be empty after trimming; the role defaults to member. */
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

/** Invitation tokens in links: 32 random bytes, base64url (43 characters). */
export const invitationTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/)

/** The first 8 characters of a team id, as the settings tab shows it. */
export function shortTeamId(id: string): string {
  return id.slice(0, 8)
}
