import { useState } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'
import { DEFAULT_POST_AUTH_PATH } from '../../../domain/constants.ts'
import { isSafeNextPath, safeNextPath } from '../../../domain/next-path.ts'
import { useSession } from './session.ts'

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
  const next = usePostAuthPath()
  if (arrivedSignedIn) return <Navigate to={next} replace />
  return <Outlet />
}

/**
 * Where to go after signing in: the `?next=` of a link that sends people here (an invitation, the
 * code mail), else the protected page that sent the user to sign in; only paths on this site.
 */
export function usePostAuthPath(): string {
  const location = useLocation()
  const fromLink = new URLSearchParams(location.search).get('next')
  if (isSafeNextPath(fromLink)) return fromLink
  return safeNextPath((location.state as { from?: string } | null)?.from, DEFAULT_POST_AUTH_PATH)
}

/**
 * What a sign-in or sign-up page passes on to the other ones it links to: where to go afterwards
 * and the address to fill in (`?next=&email=`), and the router state of a protected page.
 */
export function useAuthCarry(): { search: string; state: unknown; email: string } {
  const location = useLocation()
  const params = new URLSearchParams(location.search)
  const carried = new URLSearchParams()
  const next = params.get('next')
  const email = params.get('email') ?? ''
  if (isSafeNextPath(next)) carried.set('next', next)
  if (email) carried.set('email', email)
  const search = carried.size > 0 ? `?${carried}` : ''
  return { search, state: location.state, email }
}
