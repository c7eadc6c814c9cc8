import type { conversationOperations } from '../../../domain/api/conversations.ts'
import { MESSAGES_PAGE } from '../../../domain/constants.ts'
import { operationRefs } from '../../lib/api.ts'
import { operationQuery, pagedOperationQuery } from '../../lib/queries.ts'

/**
 * The conversation screen's first reads, by address (`operationRefs`, decision 0220): the route
 * table asks for them as the signed-in routes load, before the screen's code and the schemas have
 * arrived (decision 0235). Same keys as by declaration: a key is made of group and name.
 */
const reads = operationRefs<Pick<typeof conversationOperations, 'get' | 'messages'>>('conversations', {
  get: { method: 'GET', path: '/v1/conversations/:id' },
  messages: { method: 'GET', path: '/v1/conversations/:id/messages' },
})

export function conversationQuery(id: string) {
  return operationQuery(reads.get, { params: { id } })
}

/**
 * The detail screen opens at the newest messages: pages come newest first (order=desc, 100 each)
 * and the screen shows them oldest first; scrolling up loads older pages.
 */
export function messagesQuery(conversationId: string) {
  return pagedOperationQuery(reads.messages, {
    params: { id: conversationId },
    query: { order: 'desc', limit: MESSAGES_PAGE.screen },
  })
}
