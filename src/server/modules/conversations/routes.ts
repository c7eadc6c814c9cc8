import { Hono, type MiddlewareHandler } from 'hono'
import { z } from 'zod'
import {
  addAttachmentInput,
  appendMessageInput,
  createConversationInput,
  listConversationsQuery,
  listMessagesQuery,
  updateConversationInput,
  updateMessageInput,
} from '../../../domain/conversations.ts'
import { AppError } from '../../../domain/errors.ts'
import type { MessageKey } from '../../../domain/messages/index.ts'
import type { Db } from '../../db/client.ts'
import type { UserEnv } from '../../http/env.ts'
import { jsonBody, pathParam, queryParams } from '../../http/input.ts'
import { addAttachment, listAttachments, removeAttachment } from './attachments.ts'
import { appendMessage, deleteMessage, listMessages, updateMessage } from './messages.ts'
import {
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  updateConversation,
} from './service.ts'
import { getPromptUsage } from './usage.ts'

/** Every conversation route needs a signed-in user; the spec's wording for it (§5). */
const requireSignedIn: MiddlewareHandler<UserEnv> = async (c, next) => {
  if (!c.get('user')) throw new AppError('not_authenticated', 'conversations.userMustBeAuthenticated')
  return next()
}

/** A path id that is not a uuid names nothing: the same 404 as a missing object. */
function id(value: string | undefined, notFound: MessageKey): string {
  return pathParam(value, z.uuid(), new AppError('not_found', notFound))
}

/** `/api/v1/conversations`: the conversations and their messages. */
export function conversationRoutes({ db }: { db: Db }) {
  return new Hono<UserEnv>()
    .use(requireSignedIn)
    .get('/', async (c) => {
      return c.json(await listConversations(db, c.get('user'), queryParams(c, listConversationsQuery)))
    })
    .post('/', async (c) => {
      const input = await jsonBody(c, createConversationInput)
      return c.json({ conversation: await createConversation(db, c.get('user'), input) }, 201)
    })
    .get('/:id', async (c) => {
      const conversationId = id(c.req.param('id'), 'conversations.notFound')
      return c.json({ conversation: await getConversation(db, c.get('user'), conversationId) })
    })
    .patch('/:id', async (c) => {
      const conversationId = id(c.req.param('id'), 'conversations.notFound')
      const input = await jsonBody(c, updateConversationInput)
      return c.json({ conversation: await updateConversation(db, c.get('user'), conversationId, input) })
    })
    .delete('/:id', async (c) => {
      await deleteConversation(db, c.get('user'), id(c.req.param('id'), 'conversations.notFound'))
      return c.body(null, 204)
    })
    .get('/:id/messages', async (c) => {
      const conversationId = id(c.req.param('id'), 'conversations.notFound')
      return c.json(await listMessages(db, c.get('user'), conversationId, queryParams(c, listMessagesQuery)))
    })
    .post('/:id/messages', async (c) => {
      const conversationId = id(c.req.param('id'), 'conversations.notFound')
      const input = await jsonBody(c, appendMessageInput)
      return c.json({ message: await appendMessage(db, c.get('user'), conversationId, input) }, 201)
    })
}

/** `/api/v1/messages`: editing and deleting one message, and the prompts attached to it. */
export function messageRoutes({ db }: { db: Db }) {
  return new Hono<UserEnv>()
    .use(requireSignedIn)
    .patch('/:id', async (c) => {
      const messageId = id(c.req.param('id'), 'conversations.messageNotFound')
      const input = await jsonBody(c, updateMessageInput)
      return c.json({ message: await updateMessage(db, c.get('user'), messageId, input) })
    })
    .delete('/:id', async (c) => {
      await deleteMessage(db, c.get('user'), id(c.req.param('id'), 'conversations.messageNotFound'))
      return c.body(null, 204)
    })
    .get('/:id/attachments', async (c) => {
      const messageId = id(c.req.param('id'), 'conversations.messageNotFound')
      return c.json({ items: await listAttachments(db, c.get('user'), messageId) })
    })
    .post('/:id/attachments', async (c) => {
      const messageId = id(c.req.param('id'), 'conversations.messageNotFound')
      const input = await jsonBody(c, addAttachmentInput)
      return c.json({ attachment: await addAttachment(db, c.get('user'), messageId, input) }, 201)
    })
    .delete('/:id/attachments/:attachmentId', async (c) => {
      const messageId = id(c.req.param('id'), 'conversations.messageNotFound')
      const attachmentId = id(c.req.param('attachmentId'), 'conversations.attachmentNotFound')
      await removeAttachment(db, c.get('user'), messageId, attachmentId)
      return c.body(null, 204)
    })
}

/** `/api/v1/prompts/:id/usage`: the conversations that use each version of a prompt. */
export function promptUsageRoutes({ db }: { db: Db }) {
  return new Hono<UserEnv>().use('/:id/usage', requireSignedIn).get('/:id/usage', async (c) => {
    const promptId = id(c.req.param('id'), 'prompts.notFound')
    return c.json({ usage: await getPromptUsage(db, c.get('user'), promptId) })
  })
}
