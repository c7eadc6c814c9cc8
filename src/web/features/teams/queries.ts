import { queryOptions, useQuery } from '@tanstack/react-query'
import type { TeamSummary } from '../../../domain/teams.ts'
import { api } from '../../lib/api.ts'

export const myTeamsQuery = queryOptions({
  queryKey: ['teams', 'mine'],
  queryFn: async () => (await api.get<{ items: TeamSummary[] }>('/api/v1/teams')).items,
})

/** The teams the signed-in user belongs to (for team selectors, tabs and the sidebar). */
export function useMyTeams() {
  return useQuery(myTeamsQuery)
}
