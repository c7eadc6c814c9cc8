import type { conversationOperations } from '../../../domain/api/conversations.ts'
import type { Db } from '../../db/client.ts'
import type { Handlers } from '../../http/operations.ts'
import type { ModelDeps } from '../models/index.ts'
import { addAttachment, listAttachments, removeAttachment } from './attachments.ts'
import { appendMessage, deleteMessage, listMessages, updateMessage } from './messages.ts'
import { generateReply } from './replies.ts'
import {
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  updateConversation,
} from './service.ts'
import { getPromptUsage } from './usage.ts'

/** Conversations, their messages, the prompts attached to messages, and where a prompt is used. */
export function conversationHandlers(
  deps: ModelDeps & {
    /** For the list, which tolerates a replica's lag (`Database.reader`). */
    reads: Db
  },
): Handlers<typeof conversationOperations> {
  const { db, reads } = deps
  return {
    list: ({ actor, query }) => listConversations(reads, actor, query),
    create: ({ actor, body }) => createConversation(db, actor, body),
    get: ({ actor, params }) => getConversation(db, actor, params.id),
    update: ({ actor, params, body }) => updateConversation(db, actor, params.id, body),
    delete: ({ actor, params }) => deleteConversation(db, actor, params.id),
    messages: ({ actor, params, query }) => listMessages(db, actor, params.id, query),
    appendMessage: ({ actor, params, body }) => appendMessage(db, actor, params.id, body),
    updateMessage: ({ actor, params, body }) => updateMessage(db, actor, params.id, body),
    deleteMessage: ({ actor, params }) => deleteMessage(db, actor, params.id),
    generateReply: ({ actor, params, body, signal, text }) =>
      generateReply(deps, actor, params.id, body, { signal, onText: text }),
    attachments: async ({ actor, params }) => ({
      items: await listAttachments(db, actor, params.id),
      nextCursor: null,
    }),
    attach: ({ actor, params, body }) => addAttachment(db, actor, params.id, body),
    detach: ({ actor, params }) => removeAttachment(db, actor, params.id, params.attachmentId),
    promptUsage: ({ actor, params }) => getPromptUsage(db, actor, params.id),
  }
}
