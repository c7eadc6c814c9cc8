import { Navigate, Outlet, useLocation } from 'react-router'
import { DEFAULT_POST_AUTH_PATH } from '../../../domain/constants.ts'
import { LoadingScreen } from '../shell/loading-screen.tsx'
import { CurrentUserContext, useCurrentUser, useSession } from './session.ts'

/** Signed-in users only: a loading screen while the session is checked, then /login when signed out. */
export function RequireAuth() {
  const { data: user, isPending, isError } = useSession()
  const location = useLocation()
  if (isPending) return <LoadingScreen />
  if (isError || !user) {
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

/** Sign-in and sign-up pages: a signed-in visitor goes straight to the prompts. */
export function PublicOnly() {
  const { data: user, isPending } = useSession()
  if (isPending) return <LoadingScreen />
  if (user) return <Navigate to={DEFAULT_POST_AUTH_PATH} replace />
  return <Outlet />
}

/** Where to go after signing in: back to the protected page that sent the user to sign in. */
export function usePostAuthPath(): string {
  const location = useLocation()
  const from = (location.state as { from?: string } | null)?.from
  return from?.startsWith('/') && !from.startsWith('//') ? from : DEFAULT_POST_AUTH_PATH
}
