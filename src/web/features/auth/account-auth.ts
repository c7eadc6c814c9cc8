import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  AdminSetPasswordInput,
  AuthProviders,
  CurrentUser,
  DirectResetInput,
  NewPasswordInput,
  PasswordResetRequestInput,
  VerifyCodeInput,
} from '../../../domain/auth.ts'
import { api } from '../../lib/api.ts'
import { replaceSession, sessionQuery } from './session.ts'

/** Which sign-in providers the server has configured, and whether mail leaves it (SMTP). */
export const providersQuery = queryOptions({
  queryKey: ['auth', 'providers'],
  queryFn: () => api.get<AuthProviders>('/api/v1/auth/providers'),
  staleTime: 5 * 60_000,
})

export function useAuthProviders() {
  return useQuery(providersQuery)
}

/** Step 1 of the code sign-in and "Resend code". */
export function useSendCode() {
  return useMutation({
    mutationFn: (email: string) => api.post<{ sent: true }>('/api/v1/auth/code/send', { email }),
  })
}

/** Step 2: the code signs the user in (a first sign-in creates the account). */
export function useVerifyCode() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: VerifyCodeInput) =>
      api.post<{ user: CurrentUser }>('/api/v1/auth/code/verify', input),
    onSuccess: ({ user }) => replaceSession(queryClient, user),
  })
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (input: PasswordResetRequestInput) =>
      api.post<{ sent: true }>('/api/v1/auth/password-reset', input),
  })
}

/** Trades the emailed link's token for a reset session (an HttpOnly cookie); works once. */
export function verifyRecoveryToken(tokenHash: string) {
  return api.post<{ email: string }>('/api/v1/auth/recovery', { tokenHash })
}

/** The reset session, if this browser has one: whose password may be set. */
export function fetchRecoverySession() {
  return api.get<{ email: string }>('/api/v1/auth/recovery')
}

export function useSetRecoveredPassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: NewPasswordInput) =>
      api.post<{ updated: true }>('/api/v1/auth/recovery/password', input),
    // The reset ended every session of the account, this browser's included.
    onSuccess: () => replaceSession(queryClient, null),
  })
}

export function useDirectReset() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: DirectResetInput) => api.post<{ updated: true }>('/api/v1/auth/direct-reset', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey }),
  })
}

export function useAdminSetPassword() {
  return useMutation({
    mutationFn: (input: AdminSetPasswordInput) =>
      api.post<{ updated: true }>('/api/v1/auth/admin/set-password', input),
  })
}

/** Ends every session of the account except this browser's. */
export function useSignOutOtherSessions() {
  return useMutation({ mutationFn: () => api.post<{ status: boolean }>('/api/auth/revoke-other-sessions') })
}
