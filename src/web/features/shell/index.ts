/**
 * What the app, the routes and other features use of the app shell: the loading and network issue
 * screens, the logo and preference switches of the public pages, and the theme. The signed-in
 * shell itself is loaded on demand through `lazy.ts`.
 */
export { DeferredPreferenceSwitches } from './deferred-preferences.tsx'
export { LoadingScreen } from './loading-screen.tsx'
export { Logo } from './logo.tsx'
export { NetworkIssueScreen } from './network-issue.tsx'
export { followTheme, setTheme } from './theme.ts'
