/** What other features use of the profile feature: the preference controls of the top bar. */
export { ProfilePreferences } from './profile-preferences.tsx'
export { useUpdateProfile } from './queries.ts'
