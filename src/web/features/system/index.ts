/** What the routes use of the system feature: the server's health and the client debug log panel. */
export { DebugLogPanel } from './debug-log-panel.tsx'
export { useHealth } from './queries.ts'
