/** What the routes and other features use of the profile feature: the profile, its update, and the preference controls of the top bar. */
export { ProfilePreferences } from './profile-preferences.tsx'
export { useProfile, useUpdateProfile } from './queries.ts'
