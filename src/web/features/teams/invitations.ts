import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  AcceptedInvitation,
  InvitationPreview,
  InviteInput,
  TeamInvitation,
} from '../../../domain/teams.ts'
import { api } from '../../lib/api.ts'
import { teamKeys } from './queries.ts'

export function invitationsQuery(teamId: string) {
  return queryOptions({
    queryKey: teamKeys.invitations(teamId),
    queryFn: async () =>
      (await api.get<{ items: TeamInvitation[] }>(`/api/v1/teams/${teamId}/invitations`)).items,
  })
}

export function useTeamInvitations(teamId: string) {
  return useQuery(invitationsQuery(teamId))
}

/** After any invitation change: the list, the team's pending count. */
function useRefreshInvitations(teamId: string) {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: teamKeys.invitations(teamId) }),
      queryClient.invalidateQueries({ queryKey: teamKeys.detail(teamId) }),
    ])
}

export function useInviteMember(teamId: string) {
  const refresh = useRefreshInvitations(teamId)
  return useMutation({
    mutationFn: async (input: InviteInput) =>
      (await api.post<{ invitation: TeamInvitation }>(`/api/v1/teams/${teamId}/invitations`, input))
        .invitation,
    onSuccess: refresh,
  })
}

export function useResendInvitation(teamId: string) {
  const refresh = useRefreshInvitations(teamId)
  return useMutation({
    mutationFn: (invitationId: string) =>
      api.post<{ invitation: TeamInvitation }>(`/api/v1/teams/${teamId}/invitations/${invitationId}/resend`),
    onSuccess: refresh,
  })
}

export function useRevokeInvitation(teamId: string) {
  const refresh = useRefreshInvitations(teamId)
  return useMutation({
    mutationFn: (invitationId: string) =>
      api.delete<{ invitation: TeamInvitation }>(`/api/v1/teams/${teamId}/invitations/${invitationId}`),
    onSuccess: refresh,
  })
}

/** The invitation behind a link (public: the accept page shows it before sign-in). */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: async () =>
      (await api.get<{ invitation: InvitationPreview }>(`/api/v1/invitations/${token}`)).invitation,
    retry: false,
  })
}

export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () =>
      (await api.post<{ accepted: AcceptedInvitation }>(`/api/v1/invitations/${token}/accept`)).accepted,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  })
}
