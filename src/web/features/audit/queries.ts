import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query'
import { auditOperations } from '../../../domain/api/audit.ts'
import type { AuditAction } from '../../../domain/audit.ts'
import { callOperation } from '../../lib/api.ts'
import { operationQuery, pagedOperationQuery } from '../../lib/queries.ts'

/** Whose log a panel shows: everything (global admins) or one team's (its admins). */
export type AuditScope = { scope: 'global' } | { scope: 'team'; teamId: string }

/** The filters as the API takes them; empty ones are left out. */
export interface AuditFilterValues {
  actor?: string
  action?: AuditAction
  teamId?: string
  from?: string
  to?: string
}

function teamFilters(filters: AuditFilterValues) {
  const { teamId: _ignored, ...rest } = filters
  return rest
}

/** The entries, newest first, 50 a page ('Load more'). */
export function useAuditLog(scope: AuditScope, filters: AuditFilterValues) {
  const options =
    scope.scope === 'global'
      ? pagedOperationQuery(auditOperations.list, { query: filters })
      : pagedOperationQuery(auditOperations.teamList, {
          params: { teamId: scope.teamId },
          query: teamFilters(filters),
        })
  return useInfiniteQuery({ ...(options as typeof options), placeholderData: keepPreviousData })
}

/** The entries the filters match as CSV text, with a file name. */
export function useAuditExport(scope: AuditScope) {
  return useMutation({
    mutationFn: (filters: AuditFilterValues) =>
      scope.scope === 'global'
        ? callOperation(auditOperations.export, { query: filters })
        : callOperation(auditOperations.teamExport, {
            params: { teamId: scope.teamId },
            query: teamFilters(filters),
          }),
  })
}

/** The teams the global log can be filtered by; only asked for where the filter is shown. */
export function useAuditTeams(enabled: boolean) {
  return useQuery({ ...operationQuery(auditOperations.teams, {}), enabled })
}
