/** What other features use of the teams feature: the user's teams, a team picker's options, 'Create team'. */
export { CreateTeamDialog } from './create-team-dialog.tsx'
export { useMyTeams } from './queries.ts'
export { TeamOptions } from './team-options.tsx'
