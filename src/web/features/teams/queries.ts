import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { teamOperations } from '../../../domain/api/teams.ts'
import type { CreateTeamInput, UpdateTeamInput } from '../../../domain/teams.ts'
import { callOperation } from '../../lib/api.ts'
import { invalidateOperations, operationKey, operationQuery } from '../../lib/queries.ts'
import { sessionQuery } from '../auth/index.ts'

const myTeamsQuery = operationQuery(teamOperations.list, {})

/** The teams the signed-in user belongs to (for team selectors, tabs and the sidebar). */
export function useMyTeams() {
  return useQuery({ ...myTeamsQuery, select: (page) => page.items })
}

function teamQuery(teamId: string) {
  return operationQuery(teamOperations.get, { params: { teamId } })
}

export function useTeam(teamId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...teamQuery(teamId), enabled: options.enabled ?? true })
}

export function useCreateTeam() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateTeamInput) => callOperation(teamOperations.create, { body }),
    onSuccess: () => invalidateOperations(queryClient, teamOperations.list),
  })
}

export function useRenameTeam(teamId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateTeamInput) => callOperation(teamOperations.rename, { params: { teamId }, body }),
    onSuccess: (team) => {
      queryClient.setQueryData(teamQuery(teamId).queryKey, team)
      invalidateOperations(queryClient, teamOperations.list)
    },
  })
}

/** Leaving: the caller moves away from the team's page; their team list drops the team. */
export function useLeaveTeam(teamId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => callOperation(teamOperations.leave, { params: { teamId } }),
    onSuccess: () => invalidateOperations(queryClient, teamOperations.list),
  })
}

/** Every query about one team (its detail, members, invitations) starts with these keys. */
export function teamQueryKeys(teamId: string) {
  return {
    detail: teamQuery(teamId).queryKey,
    members: operationKey(teamOperations.members, { params: { teamId } }),
    invitations: operationKey(teamOperations.invitations, { params: { teamId } }),
  }
}

/** 'Refresh Auth': renews the session, then reloads every team query (e.g. after being made admin). */
export function useRefreshAuth() {
  const queryClient = useQueryClient()
  return async () => {
    await queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 })
    await queryClient.invalidateQueries({ queryKey: [teamOperations.$group.name] })
  }
}
