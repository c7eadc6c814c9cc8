import { z } from 'zod'
import { CONVERSATIONS_PAGE, MESSAGES_PAGE } from './constants.ts'
import { cursorParam, repeatedParam } from './list-params.ts'
import { normalizeTags } from './prompts.ts'

/**
 * Conversations, their messages and the prompts attached to messages (§3, §5, §7): the API's input
 * schemas (shared by forms and server) and its output shapes.
 */
export const CONVERSATION_TITLE_MAX = 200
export const TAG_LENGTH_MAX = 50
export const TAGS_MAX = 20
export const MESSAGE_TEXT_MAX = 50_000
export const MODEL_NAME_MAX = 100
export const TOKEN_COUNT_MAX = 100_000_000
export const ATTACHMENTS_PER_MESSAGE_MAX = 10
export const ATTACHMENT_NOTES_MAX = 1000
export const SEARCH_MAX = 200
/** How many conversations the usage view lists per prompt version (the count stays exact). */
export const USAGE_CONVERSATIONS_PER_VERSION = 20

export const messageRoles = ['user', 'assistant', 'system'] as const
export type MessageRole = (typeof messageRoles)[number]

/** Tags as typed in a form: split on commas, trimmed, empties dropped (§5). Duplicates go too. */
export function parseTagList(text: string): string[] {
  return normalizeTags(text.split(','))
}

export const titleSchema = z
  .string({ error: 'conversations.titleRequired' })
  .trim()
  .min(1, 'conversations.titleRequired')
  .max(CONVERSATION_TITLE_MAX, 'conversations.titleTooLong')

export const tagsSchema = z
  .array(z.string({ error: 'conversations.invalidTags' }), { error: 'conversations.invalidTags' })
  .transform(normalizeTags)
  .refine((tags) => tags.every((tag) => tag.length <= TAG_LENGTH_MAX), 'conversations.tagTooLong')
  .refine((tags) => tags.length <= TAGS_MAX, 'conversations.tooManyTags')

export const messageTextSchema = z
  .string({ error: 'conversations.messageRequired' })
  .trim()
  .min(1, 'conversations.messageRequired')
  .max(MESSAGE_TEXT_MAX, 'conversations.messageTooLong')

/** Message content arrives as `{ text }` (or, as the spec also allows, a bare string). */
const messageContentSchema = z
  .preprocess(
    (value) => (typeof value === 'object' && value !== null && 'text' in value ? value.text : value),
    messageTextSchema,
  )
  .transform((text) => ({ text }))

export const roleSchema = z.enum(messageRoles, { error: 'conversations.invalidRole' })

export const attachmentRefSchema = z.object({
  promptId: z.uuid('prompts.notFound'),
  /** Absent or null: attach "latest", which stores no version. */
  promptVersionId: z.uuid('prompts.versionNotFound').nullish(),
})
export type AttachmentRef = z.input<typeof attachmentRefSchema>

export const createConversationInput = z.object({
  title: titleSchema,
  teamId: z.uuid('conversations.teamNotFound').nullish(),
  /** Sent as the first message (role user) only when non-empty after trimming (§5). */
  firstMessage: z
    .string({ error: 'conversations.messageRequired' })
    .trim()
    .max(MESSAGE_TEXT_MAX, 'conversations.messageTooLong')
    .optional(),
  tags: tagsSchema.default([]),
})
export type CreateConversationInput = z.input<typeof createConversationInput>

/** The New Conversation dialog's fields; `toCreateConversationInput` makes the API input. */
export const newConversationForm = z.object({
  title: titleSchema,
  teamId: z.string(),
  firstMessage: z.string().max(MESSAGE_TEXT_MAX, 'conversations.messageTooLong'),
  tags: z
    .string()
    .refine(
      (text) => parseTagList(text).every((tag) => tag.length <= TAG_LENGTH_MAX),
      'conversations.tagTooLong',
    )
    .refine((text) => parseTagList(text).length <= TAGS_MAX, 'conversations.tooManyTags'),
})
export type NewConversationForm = z.input<typeof newConversationForm>

export function toCreateConversationInput(
  form: z.output<typeof newConversationForm>,
): CreateConversationInput {
  const firstMessage = form.firstMessage.trim()
  return {
    title: form.title,
    teamId: form.teamId === '' ? null : form.teamId,
    ...(firstMessage !== '' && { firstMessage }),
    tags: parseTagList(form.tags),
  }
}

export const updateConversationInput = z
  .object({ title: titleSchema.optional(), tags: tagsSchema.optional() })
  .refine((input) => input.title !== undefined || input.tags !== undefined, 'conversations.nothingToUpdate')
export type UpdateConversationInput = z.input<typeof updateConversationInput>

export const appendMessageInput = z.object({
  role: roleSchema.default('user'),
  content: messageContentSchema,
  model: z
    .string({ error: 'conversations.modelTooLong' })
    .trim()
    .max(MODEL_NAME_MAX, 'conversations.modelTooLong')
    .nullish()
    .transform((model) => (model ? model : null)),
  tokenCount: z
    .number({ error: 'conversations.invalidTokenCount' })
    .int('conversations.invalidTokenCount')
    .min(0, 'conversations.invalidTokenCount')
    .max(TOKEN_COUNT_MAX, 'conversations.invalidTokenCount')
    .nullish()
    .transform((count) => count ?? null),
  attachments: z
    .array(attachmentRefSchema, { error: 'conversations.invalidAttachments' })
    .max(ATTACHMENTS_PER_MESSAGE_MAX, 'conversations.tooManyAttachments')
    .default([]),
})
export type AppendMessageInput = z.input<typeof appendMessageInput>

export const updateMessageInput = z
  .object({ content: messageContentSchema.optional(), role: roleSchema.optional() })
  .refine((input) => input.content !== undefined || input.role !== undefined, 'conversations.nothingToUpdate')
export type UpdateMessageInput = z.input<typeof updateMessageInput>

export const addAttachmentInput = attachmentRefSchema.extend({
  notes: z
    .string({ error: 'conversations.notesTooLong' })
    .trim()
    .max(ATTACHMENT_NOTES_MAX, 'conversations.notesTooLong')
    .nullish()
    .transform((notes) => (notes ? notes : null)),
})
export type AddAttachmentInput = z.input<typeof addAttachmentInput>

/** `?limit=` clamped to the spec's bounds (§9); text that is not a whole number is refused. */
function limitSchema(page: { default: number; max: number }) {
  return z.coerce
    .number({ error: 'conversations.invalidLimit' })
    .int('conversations.invalidLimit')
    .transform((limit) => Math.min(Math.max(limit, 1), page.max))
    .default(page.default)
}

export const conversationScopes = ['owner', 'team'] as const
export type ConversationScope = (typeof conversationScopes)[number]

export const listConversationsQuery = z.object({
  scope: z.enum(conversationScopes, { error: 'conversations.invalidScope' }).default('owner'),
  /** With scope=team: one of the user's teams (another team lists nothing); absent: all of them. */
  teamId: z.uuid('conversations.teamNotFound').optional(),
  search: z.string().trim().max(SEARCH_MAX, 'conversations.searchTooLong').optional(),
  // The same limits as a conversation's own tags: a filter can name any tag that exists, and no more.
  tags: repeatedParam('conversations.invalidTags')
    .optional()
    .transform((value) => value ?? [])
    .pipe(tagsSchema),
  limit: limitSchema(CONVERSATIONS_PAGE),
  cursor: cursorParam.optional(),
})
export type ListConversationsQuery = z.input<typeof listConversationsQuery>

export const messageOrders = ['asc', 'desc'] as const
export const listMessagesQuery = z.object({
  limit: limitSchema(MESSAGES_PAGE),
  cursor: cursorParam.optional(),
  /** asc (the spec's): oldest first. desc: newest first, so a screen can open at the newest page. */
  order: z.enum(messageOrders, { error: 'conversations.invalidOrder' }).default('asc'),
})

/** What the caller may do with a conversation (computed by the server with `conversationAccess`). */
export interface ConversationAccess {
  /** Change title and tags, delete it. */
  canManage: boolean
  /** Edit or delete other people's messages. */
  canModerate: boolean
}

export interface ConversationSummary {
  id: string
  title: string
  teamId: string | null
  teamName: string | null
  ownerUserId: string
  tags: string[]
  createdAt: string
  updatedAt: string
}

export interface SnapshotEntry {
  role: MessageRole
  content: string
}

export interface Conversation extends ConversationSummary {
  /** The last 10 messages as role/content, or `{}` before the first message. */
  content: { messages: SnapshotEntry[] } | Record<string, never>
  access: ConversationAccess
}

export interface MessageAttachment {
  id: string
  messageId: string
  promptId: string
  promptVersionId: string | null
  /** The prompt's title, or null when the viewer may not see the prompt (shown as 'Prompt'). */
  title: string | null
  /** null: attached as "latest". */
  versionNumber: number | null
  attachedByUserId: string | null
  notes: string | null
  createdAt: string
}

export interface Message {
  id: string
  conversationId: string
  createdByUserId: string | null
  authorEmail: string | null
  role: MessageRole
  content: { text: string }
  model: string | null
  tokenCount: number | null
  createdAt: string
  updatedAt: string
  attachments: MessageAttachment[]
}

export interface PromptUsageConversation {
  id: string
  title: string
  updatedAt: string
}

/** Where one version of a prompt (or its "latest" attachments: versionId null) is used. */
export interface PromptVersionUsage {
  versionId: string | null
  versionNumber: number | null
  conversationCount: number
  conversations: PromptUsageConversation[]
}

export interface PromptUsage {
  promptId: string
  /** Distinct conversations, visible to the viewer, that use any version of the prompt. */
  conversationCount: number
  versions: PromptVersionUsage[]
}
