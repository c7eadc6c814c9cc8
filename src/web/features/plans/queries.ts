import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import { planOperations } from '../../../domain/api/plans.ts'
import type { ChoosePlanInput, grantPlanInput } from '../../../domain/plans.ts'
import { callOperation } from '../../lib/api.ts'
import { invalidateOperations, operationQuery } from '../../lib/queries.ts'
import { useStepUp } from '../step-up/index.ts'

type GrantPlanInput = z.input<typeof grantPlanInput>

export function entitlementsQuery(teamId?: string) {
  return operationQuery(planOperations.entitlements, { query: teamId ? { teamId } : {} })
}

/** What the personal space (or a team) may do now: state, plan, limits, usage, trial days left. */
export function useEntitlements(teamId?: string) {
  return useQuery(entitlementsQuery(teamId))
}

export function useBilling() {
  return useQuery({ ...operationQuery(planOperations.billing, {}), select: (page) => page.items })
}

export function useChoosePlan() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ChoosePlanInput) => callOperation(planOperations.choose, { body }),
    onSuccess: () => invalidateOperations(queryClient, planOperations),
  })
}

export function useCancelPlanRequest() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (requestId: string) => callOperation(planOperations.cancelRequest, { params: { requestId } }),
    onSuccess: () => invalidateOperations(queryClient, planOperations),
  })
}

/**
 * A global admin grants a space its largest plan from the paywall, through the audited admin
 * operation (re-authenticated like every global-admin change).
 */
export function useAdminGrantPlan() {
  const queryClient = useQueryClient()
  const stepUp = useStepUp()
  return useMutation({
    mutationFn: (body: GrantPlanInput) => stepUp(() => callOperation(planOperations.adminSetPlan, { body })),
    onSuccess: () => invalidateOperations(queryClient, planOperations),
  })
}
