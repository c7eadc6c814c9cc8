import { useQueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import { ApiError } from '../../lib/api.ts'
import { fetchRecoverySession, verifyRecoveryToken } from './account-auth.ts'
import { type CallbackEffects, InvalidLinkError } from './callback-outcome.ts'
import { notifyOpenerIfPopup, takeOAuthReturnPath } from './oauth.ts'
import { sessionQuery } from './session.ts'

/** The browser's side of /auth/callback and /auth/confirm (see callback-outcome.ts). */
export function useCallbackEffects(): CallbackEffects {
  const queryClient = useQueryClient()
  return useMemo(
    () => ({
      verifyRecoveryToken: async (tokenHash) => {
        try {
          await verifyRecoveryToken(tokenHash)
        } catch (error) {
          throw error instanceof ApiError && error.code === 'validation'
            ? new InvalidLinkError(error.message)
            : error
        }
      },
      hasRecoverySession: async () => (await fetchRecoverySession().catch(() => null)) !== null,
      isSignedIn: async () => (await queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 })) !== null,
      tellOpener: (message) => {
        const opener = window.opener as Window | null
        if (!opener) return false
        opener.postMessage(message, window.location.origin)
        return true
      },
      finishPopup: notifyOpenerIfPopup,
      takeReturnPath: takeOAuthReturnPath,
    }),
    [queryClient],
  )
}
