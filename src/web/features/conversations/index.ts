/**
 * What the routes and other features use of conversations: the list's cards and query, a
 * conversation's reads, header, messages, composer and reply, the prompt picker, the New
 * Conversation dialog (also the dashboard's Create) and a prompt's usage panel.
 */
export { ConversationCard, ConversationCardsSkeleton } from './conversation-card.tsx'
export { ConversationHeader } from './conversation-header.tsx'
export { conversationListQuery } from './conversation-queries.ts'
export { conversationQuery, messagesQuery } from './conversation-reads.ts'
export { MessageComposer } from './message-composer.tsx'
export { MessageItem } from './message-item.tsx'
export { messagesOldestFirst, useAddAttachment } from './message-queries.ts'
export { NewConversationDialog } from './new-conversation-dialog.tsx'
export type { PickedPrompt } from './prompt-picker-dialog.tsx'
export { PromptPickerDialog } from './prompt-picker-dialog.tsx'
export { PromptUsagePanel } from './prompt-usage.tsx'
export type { ReplyState } from './reply-generator.tsx'
export { ReplyGenerator, StreamingReply, useGenerateReply } from './reply-generator.tsx'
