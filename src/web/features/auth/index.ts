/** What other features use of the auth feature: who is signed in, and signing out. */
export { replaceSession, sessionQuery, useCurrentUser, useSignOut } from './session.ts'
