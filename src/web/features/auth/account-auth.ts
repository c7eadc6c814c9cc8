import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { authLibraryPaths } from '../../../domain/api/auth-addresses.ts'
import type {
  AdminSetPasswordInput,
  DirectResetInput,
  NewPasswordInput,
  PasswordResetRequestInput,
  VerifyCodeInput,
} from '../../../domain/auth.ts'
import { DEFAULT_POST_AUTH_PATH } from '../../../domain/constants.ts'
import { callOperation, postToAuthLibrary } from '../../lib/api.ts'
import { operationQuery } from '../../lib/queries.ts'
import { authCalls } from './operations.ts'
import { arrivalChecked, replaceSession, sessionQuery } from './session.ts'

/** Which sign-in providers the server has configured, and whether mail leaves it (SMTP). */
const providersQuery = queryOptions({
  ...operationQuery(authCalls.providers, {}),
  staleTime: 5 * 60_000,
})

export function useAuthProviders() {
  return useQuery(providersQuery)
}

/** Step 1 of the code sign-in and "Resend code". */
/** `next`: where the code mail's link carries on to after signing in (the default is left out). */
export function useSendCode(next: string) {
  return useMutation({
    mutationFn: (email: string) =>
      callOperation(authCalls.sendCode, {
        body: next === DEFAULT_POST_AUTH_PATH ? { email } : { email, next },
      }),
  })
}

/** Step 2: the code signs the user in (a first sign-in creates the account). */
export function useVerifyCode() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (body: VerifyCodeInput) => {
      await arrivalChecked(queryClient)
      return callOperation(authCalls.verifyCode, { body })
    },
    onSuccess: ({ user }) => replaceSession(queryClient, user),
  })
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (body: PasswordResetRequestInput) => callOperation(authCalls.requestPasswordReset, { body }),
  })
}

/** Trades the emailed link's token for a reset session (an HttpOnly cookie); works once. */
export function verifyRecoveryToken(tokenHash: string) {
  return callOperation(authCalls.openRecovery, { body: { tokenHash } })
}

/** The reset session, if this browser has one: whose password may be set. */
export function fetchRecoverySession() {
  return callOperation(authCalls.recovery, {})
}

export function useSetRecoveredPassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: NewPasswordInput) => callOperation(authCalls.recoverPassword, { body }),
    // The reset ended every session of the account, this browser's included.
    onSuccess: () => replaceSession(queryClient, null),
  })
}

export function useDirectReset() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: DirectResetInput) => callOperation(authCalls.directReset, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey }),
  })
}

export function useAdminSetPassword() {
  return useMutation({
    mutationFn: (body: AdminSetPasswordInput) => callOperation(authCalls.adminSetPassword, { body }),
  })
}

/** Ends every session of the account except this browser's. */
export function useSignOutOtherSessions() {
  return useMutation({
    mutationFn: () => postToAuthLibrary<{ status: boolean }>(authLibraryPaths.revokeOtherSessions),
  })
}
