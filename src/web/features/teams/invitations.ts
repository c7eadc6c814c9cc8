import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { planOperations } from '../../../domain/api/plans.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import type { InviteInput } from '../../../domain/teams.ts'
import { callOperation } from '../../lib/api.ts'
import { invalidateOperations, operationQuery } from '../../lib/queries.ts'
import { teamQueryKeys } from './queries.ts'

function invitationsQuery(teamId: string) {
  return operationQuery(teamOperations.invitations, { params: { teamId } })
}

export function useTeamInvitations(teamId: string) {
  return useQuery({ ...invitationsQuery(teamId), select: (page) => page.items })
}

/** After any invitation change: the list, the team's pending count. */
function useRefreshInvitations(teamId: string) {
  const queryClient = useQueryClient()
  return () => {
    const keys = teamQueryKeys(teamId)
    void queryClient.invalidateQueries({ queryKey: keys.invitations })
    void queryClient.invalidateQueries({ queryKey: keys.detail })
    // The plan's member usage counts pending invitations.
    invalidateOperations(queryClient, planOperations.entitlements)
  }
}

export function useInviteMember(teamId: string) {
  const refresh = useRefreshInvitations(teamId)
  return useMutation({
    mutationFn: (body: InviteInput) => callOperation(teamOperations.invite, { params: { teamId }, body }),
    onSuccess: refresh,
  })
}

export function useResendInvitation(teamId: string) {
  const refresh = useRefreshInvitations(teamId)
  return useMutation({
    mutationFn: (invitationId: string) =>
      callOperation(teamOperations.resendInvitation, { params: { teamId, invitationId } }),
    onSuccess: refresh,
  })
}

export function useRevokeInvitation(teamId: string) {
  const refresh = useRefreshInvitations(teamId)
  return useMutation({
    mutationFn: (invitationId: string) =>
      callOperation(teamOperations.revokeInvitation, { params: { teamId, invitationId } }),
    onSuccess: refresh,
  })
}

/** The invitation behind a link (public: the accept page shows it before sign-in). */
export function useInvitationPreview(token: string) {
  return useQuery({
    ...operationQuery(teamOperations.previewInvitation, { params: { token } }),
    retry: false,
  })
}

export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => callOperation(teamOperations.acceptInvitation, { params: { token } }),
    // Every team query but the invitation's own: its token is used up, and asking again (the
    // page still shows it while moving on) would only earn a 404.
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: [teamOperations.$group.name],
        predicate: (query) => query.queryKey[1] !== teamOperations.previewInvitation.name,
      }),
  })
}
