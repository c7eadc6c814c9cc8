import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { CreateTeamInput, TeamDetail, TeamSummary, UpdateTeamInput } from '../../../domain/teams.ts'
import { api } from '../../lib/api.ts'

/** Every team query key starts with 'teams', so one invalidation refreshes all team data. */
export const teamKeys = {
  all: ['teams'] as const,
  mine: ['teams', 'mine'] as const,
  detail: (teamId: string) => ['teams', teamId, 'detail'] as const,
  members: (teamId: string) => ['teams', teamId, 'members'] as const,
  invitations: (teamId: string) => ['teams', teamId, 'invitations'] as const,
}

export const myTeamsQuery = queryOptions({
  queryKey: teamKeys.mine,
  queryFn: async () => (await api.get<{ items: TeamSummary[] }>('/api/v1/teams')).items,
})

/** The teams the signed-in user belongs to (for team selectors, tabs and the sidebar). */
export function useMyTeams() {
  return useQuery(myTeamsQuery)
}

export function teamQuery(teamId: string) {
  return queryOptions({
    queryKey: teamKeys.detail(teamId),
    queryFn: async () => (await api.get<{ team: TeamDetail }>(`/api/v1/teams/${teamId}`)).team,
  })
}

export function useTeam(teamId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...teamQuery(teamId), enabled: options.enabled ?? true })
}

export function useCreateTeam() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: CreateTeamInput) =>
      (await api.post<{ team: TeamSummary }>('/api/v1/teams', input)).team,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.mine }),
  })
}

export function useRenameTeam(teamId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: UpdateTeamInput) =>
      (await api.patch<{ team: TeamDetail }>(`/api/v1/teams/${teamId}`, input)).team,
    onSuccess: (team) => {
      queryClient.setQueryData(teamKeys.detail(teamId), team)
      return queryClient.invalidateQueries({ queryKey: teamKeys.mine })
    },
  })
}

/** Leaving: the caller moves away from the team's page; their team list drops the team. */
export function useLeaveTeam(teamId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.post<void>(`/api/v1/teams/${teamId}/leave`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.mine }),
  })
}
