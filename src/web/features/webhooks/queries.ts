import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { webhookOperations } from '../../../domain/api/webhooks.ts'
import type { CreateWebhookInput, UpdateWebhookInput } from '../../../domain/webhooks.ts'
import { callOperation } from '../../lib/api.ts'
import { invalidateOperations, operationQuery } from '../../lib/queries.ts'
import { useStepUp } from '../step-up/index.ts'

/** The endpoints of my personal space (teamId null) or of a team I administer. */
export function useWebhooks(teamId: string | null) {
  return useQuery(operationQuery(webhookOperations.list, { query: teamId ? { teamId } : {} }))
}

/** How often the log is read again while a delivery in it is still pending. */
const PENDING_REFRESH_MS = 2000

/** An endpoint's deliveries with their attempts (the newest 50), re-read while any is pending. */
export function useWebhookDeliveries(id: string) {
  return useQuery({
    ...operationQuery(webhookOperations.deliveries, { params: { id }, query: { limit: 50 } }),
    refetchInterval: (query) =>
      query.state.data?.items.some((delivery) => delivery.status === 'pending') ? PENDING_REFRESH_MS : false,
  })
}

function useWebhookMutation<I, R>(fn: (input: I) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => invalidateOperations(queryClient, webhookOperations),
  })
}

// Creating, changing and the secret need a recent sign-in: the re-authentication dialog asks for
// one, then the action runs again (useStepUp).
export function useCreateWebhook() {
  const stepUp = useStepUp()
  return useWebhookMutation((body: CreateWebhookInput & { teamId: string | null }) =>
    stepUp(() => callOperation(webhookOperations.create, { body: { ...body, teamId: body.teamId ?? '' } })),
  )
}

export function useUpdateWebhook(id: string) {
  const stepUp = useStepUp()
  return useWebhookMutation((body: UpdateWebhookInput) =>
    stepUp(() => callOperation(webhookOperations.update, { params: { id }, body })),
  )
}

export function useDeleteWebhook(id: string) {
  return useWebhookMutation(() => callOperation(webhookOperations.delete, { params: { id } }))
}

/** The secret is fetched on demand (a click), never kept in the query cache. */
export function useRevealSecret(id: string) {
  const stepUp = useStepUp()
  return useMutation({
    mutationFn: () => stepUp(() => callOperation(webhookOperations.revealSecret, { params: { id } })),
  })
}

export function useRotateSecret(id: string) {
  const stepUp = useStepUp()
  return useWebhookMutation(() =>
    stepUp(() => callOperation(webhookOperations.rotateSecret, { params: { id } })),
  )
}

export function useSendTestEvent(id: string) {
  return useWebhookMutation(() => callOperation(webhookOperations.sendTest, { params: { id } }))
}

export function useRedeliver(id: string) {
  return useWebhookMutation((deliveryId: string) =>
    callOperation(webhookOperations.redeliver, { params: { id, deliveryId } }),
  )
}
