import { useQuery } from '@tanstack/react-query'
import type { AuthDiagnostics, SessionSummary } from '../../../domain/auth.ts'
import { api } from '../../lib/api.ts'

/** The server's live auth checks (global admins); never cached, re-run on demand. */
export function useAuthDiagnostics() {
  return useQuery({
    queryKey: ['auth', 'diagnostics'],
    queryFn: () => api.get<AuthDiagnostics>('/api/v1/auth/diagnostics'),
    staleTime: 0,
    gcTime: 0,
  })
}

/** The user's own live sessions, the current one marked. */
export function useMySessions() {
  return useQuery({
    queryKey: ['auth', 'sessions'],
    queryFn: async () => (await api.get<{ items: SessionSummary[] }>('/api/v1/sessions')).items,
    staleTime: 0,
  })
}
