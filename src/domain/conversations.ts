import { z } from 'zod'
import { CONVERSATIONS_PAGE, MESSAGES_PAGE } from './constants.ts'
import { normalizeTags, scopeParam, searchParam, TAG_LIMITS, tagsSchema, titleSchema } from './fields.ts'
import { cursorParam, limitParam, repeatedParam } from './list-params.ts'
import { modelNameSchema, runParametersSchema } from './models.ts'

/**
 * Conversations, their messages and the prompts attached to messages: the API's input
 * schemas (shared by forms and server) and its output shapes.
 */
export const MESSAGE_TEXT_MAX = 50_000
export const MODEL_NAME_MAX = 100
export const TOKEN_COUNT_MAX = 100_000_000
export const ATTACHMENTS_PER_MESSAGE_MAX = 10
export const ATTACHMENT_NOTES_MAX = 1000
/** How many conversations the usage view lists per prompt version (the count stays exact). */
export const USAGE_CONVERSATIONS_PER_VERSION = 20

export const messageRoles = ['user', 'assistant', 'system'] as const
export type MessageRole = (typeof messageRoles)[number]

/** Tags as typed in a form: split on commas, trimmed, empties dropped. Duplicates go too. */
export function parseTagList(text: string): string[] {
  return normalizeTags(text.split(','))
}

export const conversationTitleSchema = titleSchema({
  required: 'conversations.titleRequired',
  tooLong: 'conversations.titleTooLong',
})

export const conversationTagsSchema = tagsSchema({
  invalid: 'conversations.invalidTags',
  tooLong: 'conversations.tagTooLong',
  tooMany: 'conversations.tooManyTags',
})

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
  title: conversationTitleSchema,
  teamId: z.uuid('conversations.teamNotFound').nullish(),
  /** Sent as the first message (role user) only when non-empty after trimming. */
  firstMessage: z
    .string({ error: 'conversations.messageRequired' })
    .trim()
    .max(MESSAGE_TEXT_MAX, 'conversations.messageTooLong')
    .optional(),
  tags: conversationTagsSchema.default([]),
})
export type CreateConversationInput = z.input<typeof createConversationInput>

/** The New Conversation dialog's fields; `toCreateConversationInput` makes the API input. */
export const newConversationForm = z.object({
  title: conversationTitleSchema,
  teamId: z.string(),
  firstMessage: z.string().max(MESSAGE_TEXT_MAX, 'conversations.messageTooLong'),
  tags: z
    .string()
    .refine(
      (text) => parseTagList(text).every((tag) => tag.length <= TAG_LIMITS.length),
      'conversations.tagTooLong',
    )
    .refine((text) => parseTagList(text).length <= TAG_LIMITS.count, 'conversations.tooManyTags'),
})

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
  .object({ title: conversationTitleSchema.optional(), tags: conversationTagsSchema.optional() })
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

export const listConversationsQuery = z.object({
  scope: scopeParam('conversations.invalidScope'),
  /** With scope=team: one of the user's teams (another team lists nothing); absent: all of them. */
  teamId: z.uuid('conversations.teamNotFound').optional(),
  search: searchParam('conversations.searchTooLong'),
  // The same limits as a conversation's own tags: a filter can name any tag that exists, and no more.
  tags: repeatedParam('conversations.invalidTags')
    .optional()
    .transform((value) => value ?? [])
    .pipe(conversationTagsSchema),
  limit: limitParam(CONVERSATIONS_PAGE),
  cursor: cursorParam.optional(),
})

export const messageOrders = ['asc', 'desc'] as const
export const listMessagesQuery = z.object({
  limit: limitParam(MESSAGES_PAGE),
  cursor: cursorParam.optional(),
  /** asc (the spec's): oldest first. desc: newest first, so a screen can open at the newest page. */
  order: z.enum(messageOrders, { error: 'conversations.invalidOrder' }).default('asc'),
})

/** What the caller may do with a conversation (computed by the server with `conversationAccess`). */
export const conversationAccessSchema = z.object({
  /** Change title and tags, delete it. */
  canManage: z.boolean(),
  /** Edit or delete other people's messages. */
  canModerate: z.boolean(),
})
export type ConversationAccess = z.infer<typeof conversationAccessSchema>

export const conversationSummarySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  teamId: z.uuid().nullable(),
  teamName: z.string().nullable(),
  ownerUserId: z.string(),
  tags: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type ConversationSummary = z.infer<typeof conversationSummarySchema>

const snapshotEntrySchema = z.object({ role: roleSchema, content: z.string() })

export const conversationSchema = conversationSummarySchema.extend({
  /** The last 10 messages as role/content, or `{}` before the first message. */
  content: z.union([z.object({ messages: z.array(snapshotEntrySchema) }), z.object({}).strict()]),
  access: conversationAccessSchema,
  /** The provider and model of its last generated reply (null until one was generated). */
  replyModel: z.object({ providerId: z.uuid(), model: z.string() }).nullable(),
})
export type Conversation = z.infer<typeof conversationSchema>

export const messageAttachmentSchema = z.object({
  id: z.uuid(),
  messageId: z.uuid(),
  /** null (with the version id and title) when the viewer may not see the prompt. */
  promptId: z.uuid().nullable(),
  promptVersionId: z.uuid().nullable(),
  /** The prompt's title, or null when the viewer may not see the prompt (shown as 'Prompt'). */
  title: z.string().nullable(),
  /** null: attached as "latest". */
  versionNumber: z.number().int().nullable(),
  attachedByUserId: z.string().nullable(),
  notes: z.string().nullable(),
  createdAt: z.string(),
})
export type MessageAttachment = z.infer<typeof messageAttachmentSchema>

export const messageSchema = z.object({
  id: z.uuid(),
  conversationId: z.uuid(),
  createdByUserId: z.string().nullable(),
  authorEmail: z.string().nullable(),
  role: roleSchema,
  content: z.object({ text: z.string() }),
  model: z.string().nullable(),
  tokenCount: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  attachments: z.array(messageAttachmentSchema),
})
export type Message = z.infer<typeof messageSchema>

const promptUsageConversationSchema = z.object({ id: z.uuid(), title: z.string(), updatedAt: z.string() })

/** Where one version of a prompt (or its "latest" attachments: versionId null) is used. */
const promptVersionUsageSchema = z.object({
  versionId: z.uuid().nullable(),
  versionNumber: z.number().int().nullable(),
  conversationCount: z.number().int(),
  conversations: z.array(promptUsageConversationSchema),
})
export type PromptVersionUsage = z.infer<typeof promptVersionUsageSchema>

export const promptUsageSchema = z.object({
  promptId: z.uuid(),
  /** Distinct conversations, visible to the viewer, that use any version of the prompt. */
  conversationCount: z.number().int(),
  versions: z.array(promptVersionUsageSchema),
})
export type PromptUsage = z.infer<typeof promptUsageSchema>

/**
 * What "Generate reply" sends into the model: at most this many of the newest messages, and of
 * them no more than fit in this many characters (attached prompts included); older ones are left
 * out, newest kept. Only the newest `attachments` attached prompts are compiled into it.
 */
export const REPLY_CONTEXT = { messages: 100, characters: 400_000, attachments: 20 } as const

/**
 * "Generate reply": the provider and model (default: the conversation's last ones, else the
 * provider's default model) and the parameters of the request.
 */
export const generateReplyInput = z.object({
  providerId: z.uuid({ error: 'models.providerNotFound' }).optional(),
  model: modelNameSchema.optional(),
  parameters: runParametersSchema.optional().transform((parameters) => parameters ?? {}),
})
export type GenerateReplyInput = z.input<typeof generateReplyInput>
