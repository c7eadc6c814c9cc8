/** Team, membership and invitation messages and the invitation mail. */
export const teamsEn = {
  'teams.nameRequired': 'Team name is required',
  'teams.nameTooLong': 'Team name must be at most 100 characters',
  'teams.nameOneLine': 'Team name must be one line of text',
  'teams.roleInvalid': 'Role must be admin or member',
  'teams.inviteEmailRequired': 'Please enter an email address',
  'teams.notFound': 'Team not found or access denied',
  'teams.onlyAdminsInvite': 'Only team admins can invite members',
  'teams.onlyAdminsUpdateRoles': 'Only team admins can update member roles',
  'teams.onlyAdminsRemove': 'Only team admins can remove members',
  'teams.cannotRemoveSelf': 'Cannot remove yourself from team',
  'teams.notAMember': 'Not a member of this team',
  'teams.cannotLeaveOnlyAdmin': 'Cannot leave team as the only admin',
  'teams.lastAdminRequired': 'A team needs at least one admin. Make another member admin first.',
  'teams.invitationInvalid': 'Invalid or expired invitation',
  'teams.invitationExpired': 'Invitation has expired',
  'teams.invitationWrongEmail': 'Invitation is for a different email address',
  'teams.alreadyMember': 'Already a member of this team',
  'teams.alreadyInvited': 'User already invited to this team',
  'teams.invitationNotPending': 'Only pending or expired invitations can be resent or revoked',
  'teams.teamAdminRequired': 'Team admin access required',
  'teams.tooManyInvitations': 'Too many invitations sent. Please wait {seconds} seconds before trying again.',
  'teams.recipientInvitedTooOften':
    'This address has received too many invitations today. Please try again tomorrow.',
  // The team's name is the inviter's free text: the mail shows it only as a labelled value.
  'teams.mail.subject': 'You are invited to a team on Promptfolio',
  'teams.mail.body': 'A Promptfolio user invited you to join their team. The invitation says:',
  'teams.mail.detailTeam': 'Team',
  'teams.mail.detailInviter': 'Invited by',
  'teams.mail.detailRole': 'Role',
  'teams.mail.action': 'Accept the invitation',
  'teams.mail.accountHint':
    'Sign in with {email}, or create an account with that address, to accept. The link is valid for {days} days.',
  'teams.mail.ignore':
    'Not expecting this invitation? Ignore this email: nothing happens unless you accept it.',
  'teams.mail.keysSubject': 'API keys of your team to review',
  'teams.mail.keysBody':
    'Someone who created API keys for your team is no longer one of its admins. The keys still work for the team, and that person may still hold their secrets. Review them and revoke those the team does not need:',
  'teams.mail.detailFormerAdmin': 'Former admin',
  'teams.mail.detailKey': 'Key',
  'teams.mail.keysAction': 'Review the API keys',
  'teams.role.admin': 'Admin',
  'teams.role.member': 'Member',
  // Lists these as well. This server reports those situations as 'Team not found or access
  // denied' (a non-member must not learn that a team exists) or they belong to the global admin
  // area's role management; they stay in the catalog for the modules that report them.
  'teams.membersAccessDenied': 'Access denied to team members',
  'teams.invitationsAccessDenied': 'Access denied to team invitations',
  'teams.cannotManageRoles': 'Cannot manage roles for this team',
  'teams.ownRolesOnly': 'Can only view own team roles',
  'teams.fetchFailed': 'Failed to fetch teams',
  'teams.assignRoleFailed': 'Failed to assign team role',
} as const
