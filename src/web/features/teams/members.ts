import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { teamOperations } from '../../../domain/api/teams.ts'
import type { Page } from '../../../domain/cursor.ts'
import type { TeamRole } from '../../../domain/permissions.ts'
import type { TeamMember } from '../../../domain/teams.ts'
import { callOperation } from '../../lib/api.ts'
import { invalidateOperations, operationQuery } from '../../lib/queries.ts'
import { teamQueryKeys } from './queries.ts'

function membersQuery(teamId: string) {
  return operationQuery(teamOperations.members, { params: { teamId } })
}

export function useTeamMembers(teamId: string) {
  return useQuery({ ...membersQuery(teamId), select: (page) => page.items })
}

/**
 * Whether `userId` is the team's only admin: the server refuses to demote them or let them leave
 * (a team keeps one admin), so the page explains that instead of offering it. False while the
 * list is loading or has more pages than the first.
 */
export function useIsOnlyAdmin(teamId: string, userId: string | undefined): boolean {
  const page = useQuery(membersQuery(teamId)).data
  if (!page || page.nextCursor) return false
  const admins = page.items.filter((member) => member.role === 'admin')
  return admins.length === 1 && admins[0]?.userId === userId
}

/** Changes a role; the list shows the new role at once and rolls back if the server refuses. */
export function useChangeMemberRole(teamId: string) {
  const queryClient = useQueryClient()
  const key = teamQueryKeys(teamId).members
  const setMembers = (update: (members: TeamMember[]) => TeamMember[]) =>
    queryClient.setQueryData<Page<TeamMember>>(key, (page) => page && { ...page, items: update(page.items) })
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: TeamRole }) =>
      callOperation(teamOperations.changeRole, { params: { teamId, userId }, body: { role } }),
    onMutate: async ({ userId, role }) => {
      await queryClient.cancelQueries({ queryKey: key })
      const previous = queryClient.getQueryData<Page<TeamMember>>(key)
      setMembers((members) =>
        members.map((member) => (member.userId === userId ? { ...member, role } : member)),
      )
      return { previous }
    },
    onError: (_error, _input, context) => queryClient.setQueryData(key, context?.previous),
    onSuccess: (changed) =>
      setMembers((members) => members.map((member) => (member.userId === changed.userId ? changed : member))),
    // An admin may demote themselves: their role in the team (page, sidebar) changes with the list.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: teamQueryKeys(teamId).detail })
      invalidateOperations(queryClient, teamOperations.list)
    },
  })
}

export function useRemoveMember(teamId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) =>
      callOperation(teamOperations.removeMember, { params: { teamId, userId } }),
    onSuccess: (_result, userId) => {
      queryClient.setQueryData<Page<TeamMember>>(
        teamQueryKeys(teamId).members,
        (page) => page && { ...page, items: page.items.filter((member) => member.userId !== userId) },
      )
      invalidateOperations(queryClient, teamOperations)
    },
  })
}
