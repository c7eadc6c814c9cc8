import { type QueryClient, queryOptions } from '@tanstack/react-query'
import type { PromptUsage } from '../../../domain/conversations.ts'
import { api } from '../../lib/api.ts'

/** `GET /api/v1/prompts/:id/usage`: where each version of a prompt is attached. */
export function promptUsageQuery(promptId: string) {
  return queryOptions({
    queryKey: ['prompts', promptId, 'usage'],
    queryFn: async ({ signal }) =>
      (await api.get<{ usage: PromptUsage }>(`/api/v1/prompts/${promptId}/usage`, { signal })).usage,
  })
}

/** Any change to messages, attachments or a conversation's title can change every prompt's usage. */
export function invalidatePromptUsage(queryClient: QueryClient) {
  void queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] === 'prompts' && query.queryKey[2] === 'usage',
  })
}
