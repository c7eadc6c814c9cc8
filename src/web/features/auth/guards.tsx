import { useState } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'
import { DEFAULT_POST_AUTH_PATH } from '../../../domain/constants.ts'
import { ApiError } from '../../lib/api.ts'
import { LoadingScreen, NetworkIssueScreen } from '../shell/index.ts'
import { CurrentUserContext, useCurrentUser, useSession } from './session.ts'

/** The session check failed for network reasons (unreachable, 5xx): signed in or not is unknown. */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'network' || error.status >= 500)
}

/**
 * Signed-in users only: a loading screen while the session is checked, then /login when signed
 * out. When the check itself fails for network reasons the page says so with a retry instead
 * of sending a signed-in user to sign in; a user already known stays on their page.
 */
export function RequireAuth() {
  const { data: user, isPending, isError, error, refetch, isFetching } = useSession()
  const location = useLocation()
  if (isPending) return <LoadingScreen />
  if (!user && isError && isNetworkFailure(error))
    return <NetworkIssueScreen onRetry={() => void refetch()} retrying={isFetching} />
  if (!user) {
    return (
      <Navigate
        to="/login"
        replace
        state={{ from: `${location.pathname}${location.search}${location.hash}` }}
      />
    )
  }
  return (
    <CurrentUserContext value={user}>
      <Outlet />
    </CurrentUserContext>
  )
}

/** Global admins only; everyone else goes to the home page. */
export function RequireGlobalAdmin() {
  const user = useCurrentUser()
  if (user.globalRole !== 'global_admin') return <Navigate to="/" replace />
  return <Outlet />
}

/**
 * Sign-in and sign-up pages: a signed-in visitor goes straight to the prompts. The page shows at
 * once, while the session is checked, and stays as it is (with whatever was typed) when the check
 * says "signed out", however late that is.
 */
export function PublicOnly() {
  const { data: user, isPending } = useSession()
  // Decided once, when the check answers: a visitor who signs in on one of these pages is moved
  // on by that page (to where they came from; sign-up after its success screen), and their
  // sign-in waits for this answer (`arrivalChecked`).
  const [arrivedSignedIn, setArrivedSignedIn] = useState<boolean | null>(null)
  if (arrivedSignedIn === null && !isPending) setArrivedSignedIn(Boolean(user))
  if (arrivedSignedIn) return <Navigate to={DEFAULT_POST_AUTH_PATH} replace />
  return <Outlet />
}

/** Where to go after signing in: back to the protected page that sent the user to sign in. */
export function usePostAuthPath(): string {
  const location = useLocation()
  const from = (location.state as { from?: string } | null)?.from
  return from?.startsWith('/') && !from.startsWith('//') ? from : DEFAULT_POST_AUTH_PATH
}
