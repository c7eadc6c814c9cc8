/** What other features use of the teams feature: the user's teams, and a team picker's options. */
export { useMyTeams } from './queries.ts'
export { TeamOptions } from './team-options.tsx'
