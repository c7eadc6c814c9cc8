/**
 * What the routes and other features use of the teams feature: the user's teams, a team picker's
 * options, 'Create team', and the team management screen's parts.
 */
export { CreateTeamDialog } from './create-team-dialog.tsx'
export {
  DashboardContextLabel,
  DashboardContextSelector,
  DashboardTeamCard,
  useDashboardTeam,
} from './dashboard-context.tsx'
export { useAcceptInvitation, useInvitationPreview } from './invitations.ts'
export { InvitationsList } from './invitations-list.tsx'
export { InviteForm } from './invite-form.tsx'
export { useIsOnlyAdmin } from './members.ts'
export { MembersList } from './members-list.tsx'
export { useLeaveTeam, useMyTeams, useRefreshAuth, useTeam } from './queries.ts'
export { TeamOptions } from './team-options.tsx'
export { TeamSettings } from './team-settings.tsx'
