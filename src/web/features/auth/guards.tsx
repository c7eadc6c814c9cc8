import { useState } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'
import { DEFAULT_POST_AUTH_PATH } from '../../../domain/constants.ts'
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
  if (arrivedSignedIn) return <Navigate to={DEFAULT_POST_AUTH_PATH} replace />
  return <Outlet />
}

/** Where to go after signing in: back to the protected page that sent the user to sign in. */
export function usePostAuthPath(): string {
  const location = useLocation()
  const from = (location.state as { from?: string } | null)?.from
  return from?.startsWith('/') && !from.startsWith('//') ? from : DEFAULT_POST_AUTH_PATH
}
