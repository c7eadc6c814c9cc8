/** What the other features use of conversations: they import it from here only (scripts/check-server-layers.mjs). */
export { conversationOwnedBy } from './policy.ts'
