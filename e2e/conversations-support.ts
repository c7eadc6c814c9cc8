import type { Page } from '@playwright/test'
import type { Conversation, Message } from '../src/domain/conversations.ts'
import { apiOptions, expect } from './support.ts'

/** Conversation fixtures through the API, as the signed-in user of `page`. */
export async function createConversationViaApi(
  page: Page,
  body: { title: string; tags?: string[]; firstMessage?: string; teamId?: string },
): Promise<Conversation> {
  const res = await page.request.post('/api/v1/conversations', {
    data: body,
    ...apiOptions(),
  })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()) as Conversation
}

export async function appendMessageViaApi(
  page: Page,
  conversationId: string,
  body: {
    content: { text: string }
    role?: string
    attachments?: { promptId: string; promptVersionId?: string }[]
  },
): Promise<Message> {
  const res = await page.request.post(`/api/v1/conversations/${conversationId}/messages`, {
    data: body,
    ...apiOptions(),
  })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()) as Message
}
