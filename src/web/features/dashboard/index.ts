/** What other features may use of the dashboard: its query and the Team scope's activity widgets. */
export { MilestoneBanner, WeeklyStrip } from './figures.tsx'
export { useDashboard } from './queries.ts'
