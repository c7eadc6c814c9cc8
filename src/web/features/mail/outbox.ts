import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { mailOperations } from '../../../domain/api/mail.ts'
import type { MailStatus } from '../../../domain/mail.ts'
import { callOperation } from '../../lib/api.ts'
import { invalidateOperations, operationQuery, pagedOperationQuery } from '../../lib/queries.ts'
import { useStepUp } from '../step-up/index.ts'

/** The outbox, newest first, 50 mails a page ('Load more'), with the counts by status. */
export function useOutbox(filters: { status?: MailStatus; to?: string }) {
  return useInfiniteQuery({
    ...pagedOperationQuery(mailOperations.outbox, { query: filters }),
    placeholderData: keepPreviousData,
  })
}

export function useOutboxMail(id: string | null) {
  return useQuery({
    ...operationQuery(mailOperations.get, { params: { id: id ?? '' } }),
    enabled: id !== null,
  })
}

// Sending and retrying are a global admin's changes: they need a recent sign-in (useStepUp).
export function useSendTestMail() {
  const queryClient = useQueryClient()
  const stepUp = useStepUp()
  return useMutation({
    mutationFn: (to: string) => stepUp(() => callOperation(mailOperations.sendTest, { body: { to } })),
    onSettled: () => invalidateOperations(queryClient, mailOperations),
  })
}

export function useRetryMail() {
  const queryClient = useQueryClient()
  const stepUp = useStepUp()
  return useMutation({
    mutationFn: (id: string) => stepUp(() => callOperation(mailOperations.retry, { params: { id } })),
    onSettled: () => invalidateOperations(queryClient, mailOperations),
  })
}
