/** The global admin area: figures, users and roles, health, build report and probes. */
export { formatUptime } from './format.ts'
export { SystemHealthPanel } from './health.tsx'
export {
  useAdminProbes,
  useBuildStatus,
  useCodeSignInProbe,
} from './queries.ts'
export { SystemStatsPanel } from './stats.tsx'
export { TeamsTable } from './teams-table.tsx'
export { UsersTable } from './users-table.tsx'
