/** What the other features use of teams: they import it from here only (scripts/check-server-layers.mjs). */
export { queueKeysToReview } from './former-admin-keys.ts'
