import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import { dashboardOperations } from '../../../domain/api/dashboard.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { DASHBOARD } from '../../../domain/dashboard.ts'
import { toast } from '../../components/ui/toast.tsx'
import { invalidateOperations, operationQuery } from '../../lib/queries.ts'

/** Every figure of one context (personal when `teamId` is null) in one request. */
export function useDashboard(teamId: string | null, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...operationQuery(dashboardOperations.get, { query: teamId ? { teamId } : {} }),
    enabled: options.enabled ?? true,
  })
}

/** 'My Prompts (Recent)': the caller's 5 most recently changed prompts. */
export function useRecentPrompts() {
  return useQuery(
    operationQuery(promptOperations.list, { query: { scope: 'owner', limit: DASHBOARD.recentPrompts } }),
  )
}

/** 'My Conversations (Recent)': the caller's 5 most recently changed conversations. */
export function useRecentConversations() {
  return useQuery(
    operationQuery(conversationOperations.list, {
      query: { scope: 'owner', limit: DASHBOARD.recentConversations },
    }),
  )
}

/** 'Team Prompts (Recent)': up to 5 shared prompts of the chosen team. */
export function useTeamPrompts(teamId: string | null) {
  return useQuery({
    ...operationQuery(promptOperations.list, {
      query: { scope: 'team', teamId: teamId ?? undefined, limit: DASHBOARD.teamPrompts },
    }),
    enabled: teamId !== null,
  })
}

/** After a prompt changed elsewhere on the dashboard: its figures are asked again. */
export function useRefreshDashboard() {
  const queryClient = useQueryClient()
  return () => invalidateOperations(queryClient, dashboardOperations)
}

/** A widget whose data failed to load says so once in a toast (the card keeps its Retry). */
export function useFailureToast(failed: boolean, title: string) {
  useEffect(() => {
    if (failed) toast({ title, tone: 'error' })
  }, [failed, title])
}
