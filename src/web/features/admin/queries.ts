import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import type { SetGlobalRoleInput } from '../../../domain/admin.ts'
import { accountOperations } from '../../../domain/api/account.ts'
import { adminOperations } from '../../../domain/api/admin.ts'
import { planOperations } from '../../../domain/api/plans.ts'
import type { ChoosablePlanId } from '../../../domain/plans.ts'
import { callOperation } from '../../lib/api.ts'
import { invalidateOperations, operationQuery, pagedOperationQuery } from '../../lib/queries.ts'
import { useStepUp } from '../step-up/index.ts'

/** How often the live tabs ask again while they are shown. */
const LIVE_INTERVAL_MS = 15_000

/** The four cards and the acquisition panel, refreshed while the page is open. */
export function useSystemStats() {
  return useQuery({ ...operationQuery(adminOperations.stats, {}), refetchInterval: LIVE_INTERVAL_MS })
}

/** The user list: pages of 50 ('Load more'), filtered by a part of the email. */
export function useAdminUsers(search: string) {
  return useInfiniteQuery({
    ...pagedOperationQuery(adminOperations.users, { query: { search: search || undefined } }),
    placeholderData: keepPreviousData,
  })
}

/** The team list: pages of 50 ('Load more'), filtered by a part of the name. */
export function useAdminTeams(search: string) {
  return useInfiniteQuery({
    ...pagedOperationQuery(adminOperations.teams, { query: { search: search || undefined } }),
    placeholderData: keepPreviousData,
  })
}

// A global admin's changes need a recent sign-in: the re-authentication dialog asks for one, then
// the change runs again (useStepUp).
export function useSetGlobalRole() {
  const queryClient = useQueryClient()
  const stepUp = useStepUp()
  return useMutation({
    mutationFn: ({ userId, ...body }: SetGlobalRoleInput & { userId: string }) =>
      stepUp(() => callOperation(adminOperations.setRole, { params: { userId }, body })),
    // Demoting yourself changes what the whole app may show: the session is read again too.
    onSettled: () => invalidateOperations(queryClient, adminOperations, accountOperations),
  })
}

/** A user's personal plan, set by a global admin (the plans module's admin operation). */
export function useSetUserPlan() {
  const queryClient = useQueryClient()
  const stepUp = useStepUp()
  return useMutation({
    mutationFn: ({ userId, plan }: { userId: string; plan: ChoosablePlanId | null }) =>
      stepUp(() =>
        callOperation(planOperations.adminSetPlan, {
          body: { context: 'personal', subjectId: userId, plan },
        }),
      ),
    onSettled: () => invalidateOperations(queryClient, adminOperations, planOperations),
  })
}

/** A team's plan, set by a global admin (the plans module's admin operation). */
export function useSetTeamPlan() {
  const queryClient = useQueryClient()
  const stepUp = useStepUp()
  return useMutation({
    mutationFn: ({ teamId, plan }: { teamId: string; plan: ChoosablePlanId | null }) =>
      stepUp(() =>
        callOperation(planOperations.adminSetPlan, { body: { context: 'team', subjectId: teamId, plan } }),
      ),
    onSettled: () => invalidateOperations(queryClient, adminOperations, planOperations),
  })
}

export function useSystemHealth() {
  return useQuery({ ...operationQuery(adminOperations.health, {}), refetchInterval: LIVE_INTERVAL_MS })
}

export function useBuildStatus() {
  return useQuery(operationQuery(adminOperations.buildStatus, {}))
}

export function useAdminProbes(teamId?: string) {
  return useQuery({ ...operationQuery(adminOperations.probes, { query: { teamId } }), retry: false })
}

export function useCodeSignInProbe() {
  const stepUp = useStepUp()
  return useMutation({ mutationFn: () => stepUp(() => callOperation(adminOperations.probeCodeSignIn, {})) })
}
