import { Navigate, Outlet, useLocation } from 'react-router'
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
