import { useNavigate } from 'react-router'
import { useSignOut } from '../auth/session.ts'

/** Signs out and goes to the sign-in page. */
export function useSignOutAndLeave() {
  const signOut = useSignOut()
  const navigate = useNavigate()
  return () => signOut.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) })
}
