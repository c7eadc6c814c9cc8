import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { MailStatus, OutboxDetail, OutboxItem, OutboxOverview } from '../../../domain/mail.ts'
import { api } from '../../lib/api.ts'

const outboxKey = ['mail-outbox'] as const

export const outboxQuery = (filters: { status?: MailStatus; to?: string }) =>
  queryOptions({
    queryKey: [...outboxKey, 'list', filters],
    queryFn: () => api.get<OutboxOverview>('/api/v1/mail-outbox', { query: filters }),
    placeholderData: keepPreviousData,
  })

export function useOutbox(filters: { status?: MailStatus; to?: string }) {
  return useQuery(outboxQuery(filters))
}

export function useOutboxMail(id: string | null) {
  return useQuery({
    queryKey: [...outboxKey, 'mail', id],
    queryFn: async () => (await api.get<{ mail: OutboxDetail }>(`/api/v1/mail-outbox/${id}`)).mail,
    enabled: id !== null,
  })
}

export function useSendTestMail() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (to: string) => api.post<{ id: string }>('/api/v1/mail-outbox/test', { to }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: outboxKey }),
  })
}

export function useRetryMail() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.post<{ mail: OutboxItem }>(`/api/v1/mail-outbox/${id}/retry`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: outboxKey }),
  })
}
