/** What other features use of conversations: the New Conversation dialog (the dashboard's Create). */
export { NewConversationDialog } from './new-conversation-dialog.tsx'
