/** Exporting one's data, deleting one's account, deleting a team, and their mails. */
export const dataRightsEn = {
  'account.exportNotFound': 'Export not found',
  'account.exportNotReady': 'This export is still being built',
  'account.exportDownloaded': 'This export was already downloaded; start a new one',
  'account.exportFailed': 'This export failed; start a new one',
  'account.confirmRequired': 'Enter your password (or the code we mailed you) to confirm',
  'account.confirmInvalid': 'The password or code is not correct',
  'account.deletionHasPassword': 'This account has a password: confirm with it instead of a code',
  'account.soleTeamAdmin':
    'You are the only admin of {teams}. Make another member admin or delete the team first.',
  'account.lastGlobalAdmin':
    'You are the installation’s last global admin. Make someone else global admin first.',
  'account.deletedUser': 'Deleted user',
  'account.mail.codeSubject': 'Your code to delete your Promptfolio account',
  'account.mail.codeBody': 'Someone (we hope you) asked to delete your Promptfolio account. Your code:',
  'account.mail.codeValid':
    'The code is valid for 10 minutes. If you did not ask for it, ignore this mail: nothing happens without it.',
  'account.mail.deletedSubject': 'Your Promptfolio account was deleted',
  'account.mail.deletedBody':
    'Your Promptfolio account and your personal prompts, conversations, sessions and keys were deleted. What you shared with a team stays with the team, shown as from a deleted user.',
  'account.mail.deletedOutro': 'If you did not do this, reply to this mail at once.',
  'teams.deleteConfirmMismatch': 'Type the team’s name exactly to confirm',
  'teams.mail.deletedSubject': 'A team you were in was deleted',
  'teams.mail.deletedBody':
    'A team admin deleted this team, with its prompts, conversations and invitations:',
  'teams.mail.deletedBy': 'Deleted by',
} as const
