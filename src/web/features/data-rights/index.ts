/** Leaving cleanly: export my data, delete my account, delete a team. */
export { DeleteTeamCard } from './delete-team.tsx'
export { DeleteAccountCard, ExportDataCard } from './your-data.tsx'
