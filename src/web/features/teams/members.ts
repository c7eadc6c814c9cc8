import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { TeamRole } from '../../../domain/team-permissions.ts'
import type { TeamMember } from '../../../domain/teams.ts'
import { api } from '../../lib/api.ts'
import { teamKeys } from './queries.ts'

export function membersQuery(teamId: string) {
  return queryOptions({
    queryKey: teamKeys.members(teamId),
    queryFn: async () => (await api.get<{ items: TeamMember[] }>(`/api/v1/teams/${teamId}/members`)).items,
  })
}

export function useTeamMembers(teamId: string) {
  return useQuery(membersQuery(teamId))
}

/** Changes a role; the list shows the new role at once and rolls back if the server refuses. */
export function useChangeMemberRole(teamId: string) {
  const queryClient = useQueryClient()
  const key = teamKeys.members(teamId)
  return useMutation({
    mutationFn: async ({ userId, role }: { userId: string; role: TeamRole }) =>
      (await api.patch<{ items: TeamMember[] }>(`/api/v1/teams/${teamId}/members/${userId}`, { role })).items,
    onMutate: async ({ userId, role }) => {
      await queryClient.cancelQueries({ queryKey: key })
      const previous = queryClient.getQueryData<TeamMember[]>(key)
      queryClient.setQueryData<TeamMember[]>(key, (members) =>
        members?.map((member) => (member.userId === userId ? { ...member, role } : member)),
      )
      return { previous }
    },
    onError: (_error, _input, context) => queryClient.setQueryData(key, context?.previous),
    onSuccess: (members) => queryClient.setQueryData(key, members),
    // An admin may demote themselves: their role in the team (page, sidebar) changes with the list.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.detail(teamId) }),
        queryClient.invalidateQueries({ queryKey: teamKeys.mine }),
      ]),
  })
}

export function useRemoveMember(teamId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) => api.delete<void>(`/api/v1/teams/${teamId}/members/${userId}`),
    onSuccess: (_result, userId) => {
      queryClient.setQueryData<TeamMember[]>(teamKeys.members(teamId), (members) =>
        members?.filter((member) => member.userId !== userId),
      )
      return queryClient.invalidateQueries({ queryKey: teamKeys.all })
    },
  })
}
