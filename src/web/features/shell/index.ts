/** What other features use of the app shell: the loading screen and the theme switch. */
export { LoadingScreen } from './loading-screen.tsx'
export { NetworkIssueScreen } from './network-issue.tsx'
export { setTheme } from './theme.ts'
