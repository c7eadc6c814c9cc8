import { useQuery } from '@tanstack/react-query'
import type { AuthDiagnostics } from '../../../domain/auth.ts'
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

export interface SessionListItem {
  id: string
  token: string
  createdAt: string
  expiresAt: string
  ipAddress?: string | null
  userAgent?: string | null
}

/** better-auth's list of the user's own sessions. */
export function useMySessions() {
  return useQuery({
    queryKey: ['auth', 'sessions'],
    queryFn: () => api.get<SessionListItem[]>('/api/auth/list-sessions'),
    staleTime: 0,
  })
}
