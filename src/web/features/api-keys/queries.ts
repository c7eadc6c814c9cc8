import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import type { CreateApiKeyInput } from '../../../domain/api-keys.ts'
import { callOperation } from '../../lib/api.ts'
import { invalidateOperations, operationQuery } from '../../lib/queries.ts'
import { useStepUp } from '../step-up/index.ts'

/** The live keys of my personal space (teamId null) or of a team I administer. */
export function useApiKeys(teamId: string | null) {
  return useQuery(operationQuery(apiKeyOperations.list, { query: teamId ? { teamId } : {} }))
}

/** Needs a recent sign-in: the re-authentication dialog asks for one and the create runs again. */
export function useCreateApiKey() {
  const queryClient = useQueryClient()
  const stepUp = useStepUp()
  return useMutation({
    mutationFn: (body: CreateApiKeyInput & { teamId: string | null }) =>
      stepUp(() => callOperation(apiKeyOperations.create, { body: { ...body, teamId: body.teamId ?? '' } })),
    onSuccess: () => invalidateOperations(queryClient, apiKeyOperations),
  })
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => callOperation(apiKeyOperations.revoke, { params: { id } }),
    onSuccess: () => invalidateOperations(queryClient, apiKeyOperations),
  })
}
